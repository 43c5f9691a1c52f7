import type http from 'node:http';
import type net from 'node:net';

/** Starts `server` on a port the kernel picks on 127.0.0.1; gives the port. */
export async function listenOnLoopback(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** Closes an HTTP server without waiting on its open connections (keep-alive): they are cut. */
export function closeHttpServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
