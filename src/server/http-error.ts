import type { ErrorCode } from '#shared/api/error-codes.ts';

/**
 * An error whose status and message are safe to show to the client; its code is one of
 * ERROR_CODES, which endpoints declare and clients switch on.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: ErrorCode,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const unauthorized = (message = 'Authentication required') =>
  new HttpError(401, message, 'UNAUTHORIZED');
export const notFound = (message = 'Not found') => new HttpError(404, message, 'NOT_FOUND');
