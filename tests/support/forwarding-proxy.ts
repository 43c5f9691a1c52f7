import http from 'node:http';
import { closeHttpServer, listenOnLoopback } from './loopback.ts';

export interface ForwardingProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy hop as docs/deployment.md configures nginx: it forwards each request to
 * `target` and sets X-Forwarded-For the way `$proxy_add_x_forwarded_for` does, appending the
 * address it saw the client connect from to whatever X-Forwarded-For the client sent.
 */
export async function startForwardingProxy(target: string): Promise<ForwardingProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const seen = req.socket.remoteAddress ?? '';
    const sent = req.headers['x-forwarded-for'];
    const headers = { ...req.headers, 'x-forwarded-for': sent ? `${String(sent)}, ${seen}` : seen };
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(forward);
  });
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, close: () => closeHttpServer(server) };
}
