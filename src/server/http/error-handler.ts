import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../http-error.ts';
import {
  isDependencyUnavailable,
  UNAVAILABLE_MESSAGE,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from './unavailable.ts';

/** zod's own wording ("Invalid input: ...") needs the field name; our schemas' messages don't. */
function describeIssue(path: string, message: string): string {
  const generic = /^(Invalid|Too (big|small)|Unrecognized)/.test(message);
  return generic && path ? `${path}: ${message}` : message;
}

/** Our codes for Fastify's own refusals: its FST_ERR_* names are internals, not an API. */
const CODE_BY_STATUS: Record<number, string> = {
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return reply
      .headers(error.headers)
      .code(error.statusCode)
      .send({ message: error.message, ...(error.code ? { code: error.code } : {}) });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0]!;
    const path =
      first.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || '';
    return reply.code(400).send({
      message: describeIssue(path, first.message ?? 'Invalid request'),
      code: 'VALIDATION',
    });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code =
      error.code && !error.code.startsWith('FST_')
        ? error.code
        : (CODE_BY_STATUS[status] ?? 'BAD_REQUEST');
    return reply.code(status).send({ message: error.message, code });
  }
  if (isDependencyUnavailable(error)) {
    request.log.warn({ err: error }, 'dependency unavailable');
    return reply
      .code(503)
      .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
      .send({ message: UNAVAILABLE_MESSAGE, code: 'UNAVAILABLE' });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ message: 'Internal Server Error' });
}
