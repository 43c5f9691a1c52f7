import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** What a fake service was sent. */
export interface Received {
  path: string;
  body: string;
}

export interface FakeService {
  url: string;
  received: Received[];
  /** The next `n` requests fail (500 for HTTP, 451 for SMTP). */
  failNext(n: number): void;
  close(): Promise<void>;
}

/** A local stand-in for Discord's webhooks or Telegram's Bot API: records every POST. */
export async function fakeHttpService(): Promise<FakeService> {
  const received: Received[] = [];
  let failures = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (failures > 0) {
        failures--;
        res.writeHead(500).end('try later');
        return;
      }
      received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext: (n) => (failures = n),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A local SMTP relay that accepts every message (no TLS, no auth) and records its DATA. */
export async function fakeSmtpRelay(): Promise<FakeService> {
  const received: Received[] = [];
  let failures = 0;
  const server = net.createServer((socket) => {
    let inData = false;
    let data = '';
    let buffered = '';
    socket.write('220 fake relay\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let at: number;
      while ((at = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            if (failures > 0) {
              failures--;
              socket.write('451 try later\r\n');
            } else {
              received.push({ path: 'DATA', body: data });
              socket.write('250 queued\r\n');
            }
            data = '';
          } else data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext: (n) => (failures = n),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
