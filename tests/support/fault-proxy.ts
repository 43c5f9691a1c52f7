import net from 'node:net';
import { listenOnLoopback } from './loopback.ts';

/**
 * A TCP proxy in front of a dependency (PostgreSQL, Redis, the S3 server) that a fault test
 * switches between behaviours while traffic flows through it:
 * - `pass`: forwards both ways;
 * - `refuse`: drops every connection the moment it opens (as a stopped service's port would);
 * - `delay`: forwards, holding what the dependency sends back for `delayMs` (added latency,
 *   as `tc netem delay` on its link would, order kept);
 * - `http-500`: answers every HTTP request itself with 500 and an S3-style error body.
 * Switching to `refuse` or `http-500` cuts the connections already open, so pooled clients see
 * the fault at once rather than on their next new connection.
 */
export type FaultMode =
  { kind: 'pass' } | { kind: 'refuse' } | { kind: 'delay'; delayMs: number } | { kind: 'http-500' };

export interface FaultProxy {
  readonly port: number;
  /** `127.0.0.1:<port>` */
  readonly host: string;
  mode(): FaultMode;
  set(mode: FaultMode): void;
  /** Destroys every open connection (both sides). */
  cut(): void;
  close(): Promise<void>;
}

const S3_ERROR_BODY =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code>' +
  '<Message>We encountered an internal error. Please try again.</Message></Error>';
const HTTP_500 =
  'HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/xml\r\n' +
  `Content-Length: ${Buffer.byteLength(S3_ERROR_BODY)}\r\nConnection: close\r\n\r\n${S3_ERROR_BODY}`;

export async function startFaultProxy(target: {
  host?: string;
  port: number;
}): Promise<FaultProxy> {
  let mode: FaultMode = { kind: 'pass' };
  const open = new Set<net.Socket>();

  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (mode.kind === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (mode.kind === 'http-500') {
      client.once('data', () => client.end(HTTP_500));
      return;
    }
    const upstream = net.connect(target.port, target.host ?? '127.0.0.1');
    open.add(upstream);
    upstream.on('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk) => upstream.write(chunk));
    // Latency on the way back, each chunk no earlier than the one before it.
    let lastDue = 0;
    upstream.on('data', (chunk) => {
      const delayMs = mode.kind === 'delay' ? mode.delayMs : 0;
      if (delayMs === 0 && lastDue <= Date.now()) {
        client.write(chunk);
        return;
      }
      const due = Math.max(Date.now() + delayMs, lastDue);
      lastDue = due;
      setTimeout(() => client.writable && client.write(chunk), due - Date.now());
    });
  });
  const port = await listenOnLoopback(server);
  const cut = () => {
    for (const socket of open) socket.destroy();
  };
  return {
    port,
    host: `127.0.0.1:${port}`,
    mode: () => mode,
    set(next) {
      mode = next;
      if (next.kind === 'refuse' || next.kind === 'http-500') cut();
    },
    cut,
    close: () =>
      new Promise((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
