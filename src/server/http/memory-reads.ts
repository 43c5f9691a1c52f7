import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * The JSON body for a query string (what follows `?`, '' for none), or undefined when only
 * the Fastify route can answer it (a query it does not take, nothing cached yet).
 */
export type MemoryRead = (query: string) => string | undefined;

export interface MemoryReadsOptions {
  /** The API's security headers, as Fastify's routes send them. */
  headers: Record<string, string>;
  /** The request id generator Fastify uses, so ids stay one sequence. */
  requestId: (req: IncomingMessage) => string;
  /** False while the server drains or when routine reads are logged: Fastify answers then. */
  isOn: () => boolean;
}

/**
 * GET answers written straight from memory, before Fastify routes the request
 * (docs/decisions/009-memory-reads.md): for reads whose JSON is cached whole and the same for
 * every visitor, Fastify's per-request work (routing, the request's logger, hooks, its header
 * object) cost a quarter of the answer. Answers are JSON with `cache-control: no-cache`, as
 * the API's shared reads are. Each path added here keeps its Fastify route, which answers
 * everything the memory read passes on and must answer the same.
 */
export class MemoryReads {
  private readonly reads = new Map<string, MemoryRead>();
  private readonly headers: string[];

  constructor(private readonly options: MemoryReadsOptions) {
    this.headers = Object.entries(options.headers).flat();
  }

  add(path: string, read: MemoryRead): void {
    this.reads.set(path, read);
  }

  /** Puts the memory reads in front of the server's one request listener (Fastify's). */
  install(server: Server): void {
    const listeners = server.listeners('request');
    if (listeners.length !== 1)
      throw new Error('MemoryReads: expected exactly one request listener');
    const next = listeners[0] as (req: IncomingMessage, res: ServerResponse) => void;
    server.removeListener('request', next);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.answer(req, res)) next(req, res);
    });
  }

  private answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const read = this.reads.get(mark === -1 ? url : url.slice(0, mark));
    if (!read || !this.options.isOn()) return false;
    const body = read(mark === -1 ? '' : url.slice(mark + 1));
    if (body === undefined) return false;
    // In the order Fastify's route writes them.
    res.writeHead(200, [
      ...this.headers,
      'x-request-id',
      this.options.requestId(req),
      'cache-control',
      'no-cache',
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(Buffer.byteLength(body)),
    ]);
    res.end(body);
    return true;
  }
}
