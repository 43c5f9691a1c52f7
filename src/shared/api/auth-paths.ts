/** Kept apart from the schemas so first-load client code can name routes without loading zod. */
export const authPaths = {
  me: '/api/auth/me',
  login: '/api/auth/login',
  register: '/api/auth/register',
  logout: '/api/auth/logout',
  csrfToken: '/api/csrf-token',
} as const;
