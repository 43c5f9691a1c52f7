// The baseline of `npm run bench:load`: a bare Fastify app in its own process, doing nothing but
// answer small JSON, so a route's throughput divided by this one's says what the site costs.
// Prints {"port":N} once listening; SIGTERM ends it.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ hello: 'world' }));
app.post('/bare', async (request) => ({ ok: true, got: request.body }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
