import type { z } from 'zod';

/**
 * A form field checked by its schema before anything is sent: its first problem goes to
 * `setError` (and none once it passes); the parsed value comes back, or undefined while it fails.
 */
export function checkField<S extends z.ZodType>(
  schema: S,
  value: unknown,
  setError: (message: string | undefined) => void,
): z.output<S> | undefined {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    setError(parsed.error.issues[0]?.message);
    return undefined;
  }
  setError(undefined);
  return parsed.data;
}
