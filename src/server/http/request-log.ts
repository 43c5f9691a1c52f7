import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * A request's URL as logs and traces may keep it: upload URLs carry a signed one-time token,
 * progress URLs a run id (the bearer secret of a round, issue 30 finding 8), so both are masked.
 */
export function urlWithoutCredentials(url: string): string {
  return url
    .replace(/^\/api\/uploads\/[^/?]+/, '/api/uploads/[token]')
    .replace(/^\/api\/game-runs\/[^/?]+/, '/api/game-runs/[run]');
}

/** An answer slower than this is logged whatever it was. */
const SLOW_MS = 1000;

/**
 * One log line per request, written when it is answered, with what Fastify's pair of lines
 * ("incoming request", "request completed") holds between them. Routine reads (a quick
 * GET/HEAD answered below 400) are logged at debug: at info they cost more than the cached
 * routes' own work, and the proxy's access log has them (docs/decisions/008-request-logs.md).
 * Writes, refusals, failures and slow answers are logged at info; a failure's error, with its
 * stack, once at error.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    // A 5xx answer's error was logged with its stack where it was handled (http/error-handler.ts);
    // at error level again it would count every failure twice.
    if (error) {
      reply.log.error({ ...line, err: error }, 'request errored');
      return;
    }
    const routine =
      (request.method === 'GET' || request.method === 'HEAD') &&
      reply.statusCode < 400 &&
      line.responseTime < SLOW_MS;
    if (routine) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
