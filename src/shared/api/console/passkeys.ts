import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { DISPLAYABLE_TEXT } from '../text.ts';
import { consolePaths, idParamsSchema, ROLES } from './common.ts';

/** WebAuthn options and responses travel as the JSON @simplewebauthn defines; checked there. */
const webAuthnJson = z.record(z.string(), z.unknown());

export const PASSKEY_NAME_MAX = 64;

/** What the operator calls a passkey ("YubiKey", "work laptop"), so a backup can be told apart. */
export const passkeyNameSchema = z
  .string({ error: 'Give the passkey a name' })
  .trim()
  .min(1, 'Give the passkey a name')
  .max(PASSKEY_NAME_MAX, `Keep the name under ${PASSKEY_NAME_MAX} characters`)
  .refine((name) => DISPLAYABLE_TEXT.test(name), 'Use plain text');

export const passkeySchema = z.object({
  id: z.number().int(),
  /** Null for a passkey added before passkeys had names (migration 028). */
  name: z.string().nullable(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  transports: z.array(z.string()),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const operatorMeSchema = z.object({
  username: z.string(),
  role: z.enum(ROLES),
  passkeys: z.number().int(),
  /** Whether this session's passkey sign-in is recent enough for the console. */
  passkeyFresh: z.boolean(),
  /**
   * The relying party (PUBLIC_ORIGIN's host); null when passkeys cannot work here: an IP address,
   * or PUBLIC_ORIGIN unset and a host other than localhost.
   */
  rpId: z.string().nullable(),
  /** Why passkeys cannot work where the console was opened, and what to do instead. */
  hostProblem: z.string().nullable(),
});
export type OperatorMe = z.infer<typeof operatorMeSchema>;

export const operatorMeEndpoint = defineEndpoint({
  method: 'GET',
  path: consolePaths.me,
  id: 'operatorMe',
  summary: "The operator's role, passkeys and whether the session's passkey sign-in is fresh",
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  response: operatorMeSchema,
});

export const passwordBodySchema = z.object({ password: z.string().min(1).max(128) });

export const registrationOptionsEndpoint = defineEndpoint({
  method: 'POST',
  path: consolePaths.registrationOptions,
  id: 'passkeyRegistrationOptions',
  summary: 'WebAuthn options to add a passkey; needs the password again',
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  body: passwordBodySchema,
  response: webAuthnJson,
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN'], 403: ['WRONG_PASSWORD'] },
});

export const registrationEndpoint = defineEndpoint({
  method: 'POST',
  path: consolePaths.registration,
  id: 'passkeyRegistration',
  summary: "Adds the passkey the browser made, named; counts as this session's passkey sign-in",
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  body: z.object({ response: webAuthnJson, name: passkeyNameSchema.optional() }),
  status: 201,
  response: z.object({ passkey: passkeySchema }),
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN', 'PASSKEY_INVALID'] },
});

export const authenticationOptionsEndpoint = defineEndpoint({
  method: 'POST',
  path: consolePaths.authenticationOptions,
  id: 'passkeyAuthenticationOptions',
  summary: "WebAuthn options to sign in with one of the operator's passkeys",
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  response: webAuthnJson,
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN'], 404: ['NOT_FOUND'] },
});

export const authenticationEndpoint = defineEndpoint({
  method: 'POST',
  path: consolePaths.authentication,
  id: 'passkeyAuthentication',
  summary:
    "Checks the passkey sign-in; the session's console access lasts 15 min from each use, 12 h at most",
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  body: z.object({ response: webAuthnJson }),
  response: z.object({ ok: z.literal(true) }),
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN', 'PASSKEY_INVALID'] },
});

export const listPasskeysEndpoint = defineEndpoint({
  method: 'GET',
  path: consolePaths.passkeys,
  id: 'listPasskeys',
  summary: "The operator's passkeys",
  tag: 'console',
  access: 'moderator',
  response: z.object({ passkeys: z.array(passkeySchema) }),
});

export const removePasskeyEndpoint = defineEndpoint({
  method: 'DELETE',
  path: consolePaths.passkey,
  id: 'removePasskey',
  summary: "Removes one of the operator's passkeys",
  tag: 'console',
  access: 'moderator',
  params: idParamsSchema,
  response: z.object({ ok: z.literal(true) }),
  errors: { 404: ['NOT_FOUND'] },
});

export const renamePasskeyEndpoint = defineEndpoint({
  method: 'PUT',
  path: consolePaths.passkeyName,
  id: 'renamePasskey',
  summary: "Names one of the operator's passkeys",
  tag: 'console',
  access: 'moderator',
  params: idParamsSchema,
  body: z.object({ name: passkeyNameSchema }),
  response: z.object({ passkey: passkeySchema }),
  errors: { 404: ['NOT_FOUND'] },
});
