import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

/**
 * How much of an address one client holds. An IPv4 address is one subscriber (or one NAT); an
 * IPv6 subscriber is given at least a /64 and, at home, usually a /56 or a /48 (RIPE-690), so
 * keying by the full IPv6 address lets one person rotate through 2^64 identities.
 * - `client`: every per-caller limit (runs, progress, votes, logins): one /64, what a single
 *   line or phone is given.
 * - `subscriber`: where one person would multiply themselves by walking their prefix
 *   (registrations, reports): a /48, the largest end-site assignment.
 */
export type NetworkScope = 'client' | 'subscriber';

const IPV6_PREFIX: Record<NetworkScope, number> = { client: 64, subscriber: 48 };

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
