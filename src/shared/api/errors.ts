import { z } from 'zod';

/** Every error the server answers has this body. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
