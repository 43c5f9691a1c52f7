// The baseline of `npm run bench:load`: a bare Fastify app in its own process, doing nothing but
// answer JSON, so a route's throughput divided by this one's says what the site costs.
// - GET/POST /bare: a small JSON answer.
// - PUT /bare-copy/:name stores a body (sent as text/plain); GET /bare-copy/:name answers it as it is, so a route can
//   be compared with a bare route sending the very same bytes.
// Prints {"port":N} once listening; SIGTERM ends it.
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
const copies = new Map<string, string>();
app.get('/bare', async () => ({ hello: 'world' }));
app.post('/bare', async (request) => ({ ok: true, got: request.body }));
app.put<{ Params: { name: string }; Body: string }>('/bare-copy/:name', async (request) => {
  copies.set(request.params.name, request.body);
  return { ok: true };
});
app.get<{ Params: { name: string } }>('/bare-copy/:name', async (request, reply) =>
  reply.type('application/json; charset=utf-8').send(copies.get(request.params.name) ?? '{}'),
);
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
