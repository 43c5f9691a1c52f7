import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import {
  authenticationEndpoint,
  authenticationOptionsEndpoint,
  type Passkey,
  registrationEndpoint,
  registrationOptionsEndpoint,
} from '#shared/api/console/passkeys.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { errorText } from './console-api.ts';

/**
 * Adds a passkey on this device, under `name`: the password again (decision 022), then the
 * browser's prompt. It counts as this session's passkey sign-in, and signs the operator's other
 * sessions out.
 */
export async function addPasskey(password: string, name?: string): Promise<Passkey> {
  const options = await callEndpoint(registrationOptionsEndpoint, { body: { password } });
  const response = await startRegistration({ optionsJSON: options as never });
  const { passkey } = await callEndpoint(registrationEndpoint, {
    body: { response: response as never, ...(name && { name }) },
  });
  return passkey;
}

/** Signs this session in with one of the operator's passkeys (any of them). */
export async function signInWithPasskey(): Promise<void> {
  const options = await callEndpoint(authenticationOptionsEndpoint);
  const response = await startAuthentication({ optionsJSON: options as never });
  await callEndpoint(authenticationEndpoint, { body: { response: response as never } });
}

/** What to say when a ceremony fails: the browser's prompt closed, a known device, or the server. */
export function ceremonyProblem(error: unknown): string {
  if (error instanceof Error && error.name === 'NotAllowedError') {
    return 'The passkey prompt was closed or timed out. Try again.';
  }
  if (error instanceof Error && error.name === 'InvalidStateError') {
    return 'This device already holds one of your passkeys: add the backup on another device or security key.';
  }
  return errorText(error);
}

/** A name to start from, by what the browser says of this device. */
export function suggestedPasskeyName(): string {
  const agent = navigator.userAgent;
  const device = /iPhone|iPad/.test(agent)
    ? 'iPhone'
    : /Android/.test(agent)
      ? 'Android phone'
      : /Mac OS X/.test(agent)
        ? 'Mac'
        : /Windows/.test(agent)
          ? 'Windows PC'
          : 'This device';
  return device;
}
