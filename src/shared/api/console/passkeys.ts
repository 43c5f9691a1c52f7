import { z } from 'zod';
import { defineEndpoint, endpointGroup, okSchema } from '../endpoint.ts';
import { DISPLAYABLE_TEXT } from '../text.ts';
import { consolePaths, idParamsSchema, moderators, ROLES } from './common.ts';

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

/** Who is signed in, and the passkey steps: reached before the passkey sign-in they make. */
const beforePasskey = endpointGroup(moderators, { beforePasskey: true });
/** A passkey step: refused where passkeys cannot work (an IP address, no PUBLIC_ORIGIN). */
const passkeyStep = endpointGroup(beforePasskey, {
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN'] },
});

export const operatorMeEndpoint = defineEndpoint(beforePasskey, {
  method: 'GET',
  path: consolePaths.me,
  id: 'operatorMe',
  summary: "The operator's role, passkeys and whether the session's passkey sign-in is fresh",
  response: operatorMeSchema,
});

export const passwordBodySchema = z.object({ password: z.string().min(1).max(128) });

export const registrationOptionsEndpoint = defineEndpoint(passkeyStep, {
  method: 'POST',
  path: consolePaths.registrationOptions,
  id: 'passkeyRegistrationOptions',
  summary: 'WebAuthn options to add a passkey; needs the password again',
  body: passwordBodySchema,
  response: webAuthnJson,
  errors: { 403: ['WRONG_PASSWORD'] },
});

export const registrationEndpoint = defineEndpoint(passkeyStep, {
  method: 'POST',
  path: consolePaths.registration,
  id: 'passkeyRegistration',
  summary: "Adds the passkey the browser made, named; counts as this session's passkey sign-in",
  body: z.object({ response: webAuthnJson, name: passkeyNameSchema.optional() }),
  status: 201,
  response: z.object({ passkey: passkeySchema }),
  errors: { 400: ['PASSKEY_INVALID'] },
});

export const authenticationOptionsEndpoint = defineEndpoint(passkeyStep, {
  method: 'POST',
  path: consolePaths.authenticationOptions,
  id: 'passkeyAuthenticationOptions',
  summary: "WebAuthn options to sign in with one of the operator's passkeys",
  response: webAuthnJson,
  errors: { 404: ['NOT_FOUND'] },
});

export const authenticationEndpoint = defineEndpoint(passkeyStep, {
  method: 'POST',
  path: consolePaths.authentication,
  id: 'passkeyAuthentication',
  summary:
    "Checks the passkey sign-in; the session's console access lasts 15 min from each use, 12 h at most",
  body: z.object({ response: webAuthnJson }),
  response: okSchema,
  errors: { 400: ['PASSKEY_INVALID'] },
});

export const listPasskeysEndpoint = defineEndpoint(moderators, {
  method: 'GET',
  path: consolePaths.passkeys,
  id: 'listPasskeys',
  summary: "The operator's passkeys",
  response: z.object({ passkeys: z.array(passkeySchema) }),
});

/** One of the operator's own passkeys, by its id. */
const onPasskey = endpointGroup(moderators, {
  params: idParamsSchema,
  errors: { 404: ['NOT_FOUND'] },
});

export const removePasskeyEndpoint = defineEndpoint(onPasskey, {
  method: 'DELETE',
  path: consolePaths.passkey,
  id: 'removePasskey',
  summary: "Removes one of the operator's passkeys",
  response: okSchema,
});

export const renamePasskeyEndpoint = defineEndpoint(onPasskey, {
  method: 'PUT',
  path: consolePaths.passkeyName,
  id: 'renamePasskey',
  summary: "Names one of the operator's passkeys",
  body: z.object({ name: passkeyNameSchema }),
  response: z.object({ passkey: passkeySchema }),
});
