import http from 'node:http';
import net from 'node:net';
import { listenOnLoopback } from './loopback.ts';

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

/** What a fake service's handler and its handle share: what it was sent, how many more to fail. */
interface Recording {
  received: Received[];
  failures: number;
}

/** Starts `server` on loopback; the handle reads what it records and sets its failures. */
async function started(
  server: net.Server,
  scheme: 'http' | 'smtp',
  recording: Recording,
): Promise<FakeService> {
  const port = await listenOnLoopback(server);
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    received: recording.received,
    failNext: (n) => (recording.failures = n),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A local stand-in for Discord's webhooks or Telegram's Bot API: records every POST. */
export async function fakeHttpService(): Promise<FakeService> {
  const recording: Recording = { received: [], failures: 0 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (recording.failures > 0) {
        recording.failures--;
        res.writeHead(500).end('try later');
        return;
      }
      recording.received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return started(server, 'http', recording);
}

/** A local SMTP relay that accepts every message (no TLS, no auth) and records its DATA. */
export async function fakeSmtpRelay(): Promise<FakeService> {
  const recording: Recording = { received: [], failures: 0 };
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
            if (recording.failures > 0) {
              recording.failures--;
              socket.write('451 try later\r\n');
            } else {
              recording.received.push({ path: 'DATA', body: data });
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
  return started(server, 'smtp', recording);
}
