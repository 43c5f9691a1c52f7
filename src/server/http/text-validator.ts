import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { HttpError } from '../http-error.ts';

/**
 * Where `value` holds a NUL character (a dotted path, '' at the top), or null if nowhere. A walk
 * with its own stack: a body nested 30,000 deep would overflow a recursive one.
 */
function nulAt(value: unknown): string | null {
  const pending: Array<[unknown, string]> = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
      continue;
    }
    if (item === null || typeof item !== 'object' || Buffer.isBuffer(item)) continue;
    for (const [key, inner] of Object.entries(item)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return at;
      pending.push([inner, at]);
    }
  }
  return null;
}

/**
 * The zod validator, refusing NUL first in every string of params, query and body (issue 40):
 * PostgreSQL's text cannot hold it (a NUL in a reason or a run id answered 500), SQLite keeps it,
 * and no field of this site means one. Every route with a schema gets it, so no field forgets it.
 */
export const textValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data: unknown) => {
    const at = nulAt(data);
    if (at === null) return validate(data);
    return {
      error: new HttpError(
        400,
        `${at || route.httpPart} must not contain a NUL character`,
        'VALIDATION',
      ),
    };
  };
};
