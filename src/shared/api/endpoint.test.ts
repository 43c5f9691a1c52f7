import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  declaredErrors,
  defineEndpoint,
  endpointGroup,
  type Endpoint,
  type EndpointAccess,
} from './endpoint.ts';

/** An endpoint that differs from the others only in what the test is about. */
const declared = (
  parts: EndpointAccess &
    Pick<Endpoint, 'method'> &
    Partial<Pick<Endpoint, 'errors' | 'csrfExempt' | 'refuses'>>,
) =>
  declaredErrors({
    path: '/api/things',
    id: 'thing',
    summary: 'A thing',
    tag: 'things',
    response: z.object({}),
    ...parts,
  });

describe('declaredErrors: what an endpoint answers besides its own refusals', () => {
  it("derives the guard's codes from access, once, so no endpoint lists them", () => {
    const member = declared({ method: 'GET', access: 'member', signIn: 'Log in' });
    expect(member).toMatchObject({ 401: ['UNAUTHORIZED'] });
    expect(member[403]).toBeUndefined();

    const moderator = declared({ method: 'GET', access: 'moderator' });
    expect(moderator[403]).toEqual(['NOT_OPERATOR', 'SUSPENDED', 'PASSKEY_REQUIRED']);
    expect(moderator[429]).toBeUndefined();

    expect(
      declared({ method: 'POST', access: 'admin', errors: { 409: ['RUN_DISQUALIFIED'] } }),
    ).toMatchObject({
      401: ['UNAUTHORIZED'],
      403: ['CSRF', 'CROSS_SITE', 'NOT_OPERATOR', 'SUSPENDED', 'ADMIN_ONLY', 'PASSKEY_REQUIRED'],
      409: ['RUN_DISQUALIFIED'],
      // The console's write limit.
      429: ['RATE_LIMITED'],
    });

    expect(declared({ method: 'GET', access: 'moderator', beforePasskey: true })[403]).toEqual([
      'NOT_OPERATOR',
      'SUSPENDED',
    ]);
  });

  it("gives a write the session scope's refusals and the body's, a read neither", () => {
    expect(declared({ method: 'GET', access: 'visitor' })).toEqual({
      400: ['VALIDATION', 'BAD_REQUEST'],
      503: ['UNAVAILABLE'],
    });
    expect(
      declared({ method: 'PUT', access: 'visitor', errors: { 403: ['NOT_OWNED'] } }),
    ).toMatchObject({
      403: ['CSRF', 'CROSS_SITE', 'NOT_OWNED'],
      413: ['PAYLOAD_TOO_LARGE'],
      415: ['UNSUPPORTED_MEDIA_TYPE'],
    });
    const exempt = declared({ method: 'POST', access: 'visitor', csrfExempt: true });
    expect(exempt[403]).toEqual(['CROSS_SITE']);
  });

  it('declares the refusals `refuses` names, which the session scope installs', () => {
    const write = { method: 'POST', access: 'visitor', errors: { 403: ['NOT_OWNED'] } } as const;
    expect(declared({ ...write, refuses: { suspended: true } })[403]).toEqual([
      'CSRF',
      'CROSS_SITE',
      'SUSPENDED',
      'NOT_OWNED',
    ]);
    expect(declared({ ...write, refuses: { raid: 'new accounts and visitors' } })[403]).toEqual([
      'CSRF',
      'CROSS_SITE',
      'RAID_MODE',
      'NOT_OWNED',
    ]);
    expect(declared(write)[403]).toEqual(['CSRF', 'CROSS_SITE', 'NOT_OWNED']);
  });
});

describe('defineEndpoint(group, own): what endpoints share, written once', () => {
  const response = z.object({});
  const things = endpointGroup({
    tag: 'things',
    access: 'moderator',
    errors: { 404: ['NOT_FOUND'] },
  });
  const ownThings = endpointGroup(things, { beforePasskey: true, errors: { 403: ['NOT_OWNED'] } });
  const header = { method: 'POST', path: '/api/things', id: 'thing', summary: 'A thing' } as const;

  it("is the group's parts and the endpoint's, refusals joined status by status, the group's first", () => {
    expect(
      defineEndpoint(ownThings, { ...header, response, errors: { 404: ['UNKNOWN_CHARACTER'] } }),
    ).toEqual({
      ...header,
      tag: 'things',
      access: 'moderator',
      beforePasskey: true,
      response,
      errors: { 403: ['NOT_OWNED'], 404: ['NOT_FOUND', 'UNKNOWN_CHARACTER'] },
    });
  });

  it("lets an endpoint's own part win, and adds no refusals where neither has any", () => {
    expect(defineEndpoint(things, { ...header, access: 'admin', response })).toMatchObject({
      access: 'admin',
      errors: { 404: ['NOT_FOUND'] },
    });
    const plain = endpointGroup({ tag: 'things', access: 'public' });
    expect(defineEndpoint(plain, { ...header, response })).not.toHaveProperty('errors');
  });
});
