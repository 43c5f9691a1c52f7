import { z } from 'zod';
import { ERROR_CODES } from './error-codes.ts';

/** Every error the server answers has this body: the one error shape of the API. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
