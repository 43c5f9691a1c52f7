// The baseline of `npm run bench:load`: a bare Fastify app in its own process, doing nothing but
// answer a small JSON (GET and POST /bare), so a route's throughput divided by this one's says
// what the site costs on this machine. Started like a server node (startNode in
// tests/support/node-process.ts): it listens on HOST:PORT; SIGTERM ends it.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ hello: 'world' }));
app.post('/bare', async (request) => ({ ok: true, got: request.body }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
