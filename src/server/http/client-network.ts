import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

/**
 * How much of an address one client holds. An IPv4 address is one subscriber (or one NAT); an
 * IPv6 subscriber is given at least a /64 and, at home, usually a /56 or a /48 (RIPE-690), so
 * keying by the full IPv6 address lets one person rotate through 2^64 identities.
 * - `client`: every per-caller limit (runs, progress, votes, logins): one /64, what a single
 *   line or phone is given. Each such limit also counts the /64's /48 (`networkWidths`).
 * - `subscriber`: where one person would multiply themselves by walking their prefix
 *   (registrations, reports): a /48, the largest end-site assignment.
 */
export type NetworkScope = 'client' | 'subscriber';

const IPV6_PREFIX: Record<NetworkScope, number> = { client: 64, subscriber: 48 };

/**
 * What one IPv6 /48 may spend of any per-network allowance, in /64 allowances
 * (docs/decisions/018). A /48 costs nothing to get (a tunnel broker hands one out on sign-up)
 * and holds 65,536 /64s, so a limit counted per /64 alone is no limit for its holder; but a
 * carrier may put strangers' phones in one /48, so it gets a few people's room, not one's.
 */
export const WIDE_NETWORK_SHARE = 4;

/** The network an address belongs to, as a stable string key (`203.0.113.7`, `2001:db8:1::/48`). */
export function networkOf(ip: string, scope: NetworkScope = 'client'): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const bits = IPV6_PREFIX[scope];
  const parts = (address as ipaddr.IPv6).parts.slice();
  for (let i = 0; i < 8; i++) {
    const keep = Math.max(0, Math.min(16, bits - i * 16));
    parts[i] = keep === 0 ? 0 : parts[i]! & (0xffff << (16 - keep)) & 0xffff;
  }
  return `${new ipaddr.IPv6(parts).toString()}/${bits}`;
}

/** The caller's network: the one key for every per-address limit and identity. */
export function clientNetwork(request: FastifyRequest, scope: NetworkScope = 'client'): string {
  return networkOf(request.ip, scope);
}

/** One width a network is counted at, and how many of the network's allowances it may spend. */
export interface NetworkWidth {
  network: string;
  share: number;
}

/**
 * The widths a limit on `network` counts at: an IPv6 /64 (as `networkOf` writes it) at its own
 * allowance and at its /48 with `WIDE_NETWORK_SHARE` times that; anything else (an IPv4
 * address, a /48 already) at itself alone.
 */
export function networkWidths(network: string): NetworkWidth[] {
  const own = { network, share: 1 };
  if (!network.endsWith('/64')) return [own];
  const address = network.slice(0, -3);
  // Only a /64 this module wrote: a key's text is not trusted to be one.
  if (!ipaddr.IPv6.isValid(address) || networkOf(address) !== network) return [own];
  return [own, { network: networkOf(address, 'subscriber'), share: WIDE_NETWORK_SHARE }];
}
