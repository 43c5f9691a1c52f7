import { z } from 'zod';
import { appealDecisionNoticeSchema } from './appeals.ts';
import { defineEndpoint, endpointGroup, okSchema } from './endpoint.ts';
import { authPaths } from './paths.ts';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
/** Every username matches this; registration refuses any other. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

const requiredUsername = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required');
const requiredPassword = z.string({ error: 'Password is required' }).min(1, 'Password is required');

export const usernameSchema = requiredUsername
  .min(USERNAME_MIN, `Username must be at least ${USERNAME_MIN} characters`)
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  .regex(USERNAME_PATTERN, 'Username may only contain letters, digits, _ and -');

export const newPasswordSchema = requiredPassword
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

export const loginBodySchema = z.object({
  username: requiredUsername.max(
    USERNAME_MAX,
    `Username must be at most ${USERNAME_MAX} characters`,
  ),
  password: requiredPassword.max(
    PASSWORD_MAX,
    `Password must be at most ${PASSWORD_MAX} characters`,
  ),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const registerBodySchema = z.object({
  username: usernameSchema,
  password: newPasswordSchema,
  /** In raid mode: the solved ALTCHA challenge (base64 JSON), docs/decisions/027. */
  altcha: z.string().max(4000).optional(),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** The register form also asks for the password twice; confirmPassword is dropped before sending. */
export const registerFormSchema = registerBodySchema
  .extend({
    confirmPassword: z.string().min(1, 'Please confirm your password'),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const meResponseSchema = z.object({
  user: userSchema.nullable(),
  /** Present only while the member has a decision on their appeal not yet shown (decision 022). */
  appealDecision: appealDecisionNoticeSchema.optional(),
  /**
   * Present only for a moderator or an admin: the account menu links them to the console. A
   * link, not a door: the console reads the role from the database on each of its requests.
   */
  operator: z.enum(['moderator', 'admin']).optional(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

export const authResponseSchema = z.object({ user: userSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const csrfTokenResponseSchema = z.object({ csrfToken: z.string() });
export type CsrfTokenResponse = z.infer<typeof csrfTokenResponseSchema>;

/** Signing in and out, and what a visitor's page asks first: for anyone with the site's cookies. */
export const signingIn = endpointGroup({ tag: 'auth', access: 'visitor' });

export const csrfTokenEndpoint = defineEndpoint(signingIn, {
  method: 'GET',
  path: authPaths.csrfToken,
  id: 'getCsrfToken',
  summary: 'A token for the X-CSRF-Token header of every write (bound to the csrf cookie)',
  response: csrfTokenResponseSchema,
});

/** The session check on every first load (client/lib/session.ts reads it without zod). */
export const meEndpoint = defineEndpoint(signingIn, {
  method: 'GET',
  path: authPaths.me,
  id: 'getCurrentUser',
  summary: 'The signed-in member (null for a visitor) and any appeal decision not yet shown',
  response: meResponseSchema,
});

export const registerEndpoint = defineEndpoint(signingIn, {
  method: 'POST',
  path: authPaths.register,
  id: 'register',
  summary: 'Create an account and sign in to it',
  csrfExempt: true,
  body: registerBodySchema,
  status: 201,
  response: authResponseSchema,
  errors: { 403: ['CHALLENGE_REQUIRED'], 409: ['USERNAME_TAKEN'], 429: ['RATE_LIMITED'] },
});

export const loginEndpoint = defineEndpoint(signingIn, {
  method: 'POST',
  path: authPaths.login,
  id: 'login',
  summary: 'Sign in with a username and password',
  csrfExempt: true,
  body: loginBodySchema,
  response: authResponseSchema,
  errors: { 401: ['INVALID_CREDENTIALS'], 429: ['RATE_LIMITED', 'SIGN_IN_PAUSED'] },
});

export const logoutEndpoint = defineEndpoint(signingIn, {
  method: 'POST',
  path: authPaths.logout,
  id: 'logout',
  summary: 'End the session',
  response: okSchema,
});
