/** Kept apart from the schemas so first-load client code can name routes without loading zod. */
export const sitePaths = {
  time: '/api/time',
} as const;
