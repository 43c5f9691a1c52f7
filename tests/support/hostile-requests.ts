import fc from 'fast-check';
import { z } from 'zod';

/**
 * Hostile requests generated from the zod contract: each route's params, query and body schema
 * (src/shared/api) is read as JSON Schema, a valid request is built from it, and then broken
 * the ways clients break them: wrong types, values just past each bound, huge and deeply nested
 * bodies, unicode edge cases, missing and duplicated fields, wrong content types, methods and
 * paths, and missing or forged cookies, tokens and origins. Deterministic for a given seed.
 */

export interface RouteContract {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify's pattern: `:name` parameters, or a trailing `*`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

export interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Sent with the member's cookies and CSRF token (when headers leave them alone). */
  asMember: boolean;
  /** What was done to it, for the failure message. */
  what: string;
}

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  enum?: unknown[];
  items?: JsonSchema;
  maxItems?: number;
  pattern?: string;
}

const toJson = (schema: z.ZodType | undefined): JsonSchema | undefined =>
  schema && (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);

/** A small seeded generator (mulberry32): the sweep is the same for the same seed. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof seededRandom>;

/** Strings that trip up normalisation, case folding, storage and display. */
export const UNICODE_EDGES = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'ab\udfffcd',
  '\u202egnp.exe',
  'ab\u200bc',
  '\ufeffname',
  'e\u0301',
  'a' + '\u0301'.repeat(400),
  '🙂',
  '👨‍👩‍👧‍👦',
  'İstanbul',
  'ǅ',
  'ß',
  'K',
  'ﬃ',
  'مرحبا',
  '\r\n\t',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '${7*7}',
  '\\u0000',
  '𝕏'.repeat(40),
];

const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  '',
  '1',
  [],
  {},
  ['a'],
  { $gt: '' },
  JSON.parse('{"__proto__":{"admin":true}}'),
];

const patternArbitraries = new Map<string, fc.Arbitrary<string> | null>();

/** Strings matching a schema's pattern; null for a pattern fast-check cannot generate from. */
function patternArbitrary(pattern: string): fc.Arbitrary<string> | null {
  if (!patternArbitraries.has(pattern)) {
    try {
      const arbitrary = fc.stringMatching(new RegExp(pattern, 'u'));
      fc.sample(arbitrary, { seed: 1, numRuns: 1 });
      patternArbitraries.set(pattern, arbitrary);
    } catch {
      patternArbitraries.set(pattern, null);
    }
  }
  return patternArbitraries.get(pattern)!;
}

function validValue(schema: JsonSchema, rnd: Random): unknown {
  if (schema.enum) return rnd.pick(schema.enum);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || rnd.chance(0.5)) out[key] = validValue(prop, rnd);
      }
      return out;
    }
    case 'array':
      return schema.items
        ? Array.from({ length: rnd.int(3) }, () => validValue(schema.items!, rnd))
        : [];
    case 'integer':
    case 'number': {
      const min =
        schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = schema.maximum ?? min + 100;
      return rnd.pick([min, max, min + rnd.int(Math.min(1000, max - min + 1))]);
    }
    case 'string': {
      const matching = schema.pattern ? patternArbitrary(schema.pattern) : null;
      if (matching) {
        const [value] = fc.sample(matching, { seed: rnd.int(2 ** 31), numRuns: 1 });
        const max = schema.maxLength ?? Infinity;
        if (value !== undefined && value.length >= (schema.minLength ?? 0) && value.length <= max)
          return value;
      }
      return 'a'.repeat(Math.max(schema.minLength ?? 1, 1));
    }
    case 'boolean':
      return rnd.chance(0.5);
    default:
      return 'x';
  }
}

/** Values for one field that its schema must refuse, or that sit on its edges. */
function hostileValues(schema: JsonSchema): unknown[] {
  const values = [...WRONG_TYPES, ...UNICODE_EDGES];
  if (schema.type === 'string') {
    if (schema.minLength) values.push('a'.repeat(schema.minLength - 1));
    if (schema.maxLength !== undefined)
      values.push('a'.repeat(schema.maxLength + 1), '🙂'.repeat(schema.maxLength));
    values.push('x'.repeat(60_000), ' ', ' padded ', 'UPPER', 1.2345678901234567e19);
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const min = schema.minimum ?? schema.exclusiveMinimum;
    if (min !== undefined) values.push(min - 1, min - 0.5);
    if (schema.maximum !== undefined) values.push(schema.maximum + 1, schema.maximum + 0.5);
    values.push(-0, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 4.9e-324, '7', '0x10', '1e3', 'NaN');
  }
  if (schema.enum)
    values.push(
      ...schema.enum.map((v) => String(v).toUpperCase()),
      ...schema.enum.map((v) => ` ${String(v)}`),
    );
  if (schema.type === 'array') {
    values.push(
      Array.from({ length: (schema.maxItems ?? 100) + 1 }, (_, i) => i),
      [-1],
      [1.5],
      ['1'],
      [null],
      [[1]],
    );
  }
  return values;
}

/** `[[[...]]]` or `{"a":{"a":...}}`, `depth` levels down. */
function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Whole bodies that are wrong before any field is looked at. */
const HOSTILE_BODIES: (string | Buffer)[] = [
  '',
  '{',
  '}',
  'null',
  '[]',
  '"string"',
  '42',
  'true',
  '{"a":1,}',
  "{'a':1}",
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  nested(5_000, 'array'),
  nested(5_000, 'object'),
  nested(30_000, 'array'),
  `{"a":"${'x'.repeat(70 * 1024)}"}`,
  `[${'1,'.repeat(30_000)}1]`,
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from('{"a":"\xc3\x28"}', 'latin1'),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/json, text/plain',
  'APPLICATION/JSON',
  '',
  'garbage',
];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Path segments for parameters, and paths that are not quite the route's. */
const WEIRD_SEGMENTS = [
  '..',
  '%2e%2e',
  '0',
  '-1',
  '1e309',
  '9999999999999999999999',
  '2147483648',
  'null',
  '%00',
  '%F0%9F%99%82',
  'a'.repeat(600),
  '%ZZ',
  ' ',
  '1;DROP TABLE users',
];

/** Percent-encoded; a lone surrogate, which encodeURIComponent refuses, as the bytes of one. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value
      .replace(/[\ud800-\udfff]/g, '%ED%A0%80')
      .replace(/[^%\w.-]/g, (ch) => encodeURIComponent(ch));
  }
}

function fillPath(route: RouteContract, params: Record<string, unknown>): string {
  return route.path
    .replace(/:(\w+)/g, (_, name: string) => encodeSegment(String(params[name] ?? '1')))
    .replace(/\*$/, 'x');
}

function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const v of value) search.append(key, String(v));
    else
      search.append(
        key,
        typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
      );
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A JSON text with one key written twice (the second wins in JSON.parse). */
function withDuplicate(body: Record<string, unknown>, key: string, second: unknown): string {
  const first = JSON.stringify(body);
  const extra = `${JSON.stringify(key)}:${JSON.stringify(second) ?? 'null'}`;
  return first === '{}' ? `{${extra},${extra}}` : `${first.slice(0, -1)},${extra}}`;
}

export function hostileRequests(
  routes: RouteContract[],
  count: number,
  seed: number,
): HostileRequest[] {
  const rnd = seededRandom(seed);
  const contracts = routes.map((route) => ({
    route,
    params: toJson(route.params),
    query: toJson(route.query),
    body: toJson(route.body),
  }));
  // Routes with a schema to break are picked more often than those without.
  const weighted = contracts.flatMap((c) =>
    Array<typeof c>(1 + 2 * [c.params, c.query, c.body].filter(Boolean).length).fill(c),
  );
  const requests: HostileRequest[] = [];
  while (requests.length < count) {
    const c = rnd.pick(weighted);
    const params = (c.params ? validValue(c.params, rnd) : {}) as Record<string, unknown>;
    const query = (c.query ? validValue(c.query, rnd) : {}) as Record<string, unknown>;
    const body = (c.body ? validValue(c.body, rnd) : undefined) as
      Record<string, unknown> | undefined;
    let method: string = c.route.method;
    let path = fillPath(c.route, params);
    let search = queryString(query);
    let payload: string | Buffer | undefined =
      body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> =
      body === undefined ? {} : { 'content-type': 'application/json' };
    let what = '';
    const asMember = rnd.chance(0.75);

    // One to three of these at once.
    for (let n = 1 + rnd.int(3); n > 0; n--) {
      const target = rnd.pick([
        'body',
        'body',
        'body',
        'query',
        'params',
        'whole',
        'type',
        'method',
        'path',
        'headers',
      ] as const);
      if (target === 'body' && c.body?.properties && body) {
        const keys = Object.keys(c.body.properties);
        const key = rnd.pick(keys);
        const how = rnd.pick(['value', 'value', 'value', 'missing', 'extra', 'duplicate'] as const);
        if (how === 'value') body[key] = rnd.pick(hostileValues(c.body.properties[key]!));
        if (how === 'missing') delete body[key];
        if (how === 'extra')
          body[rnd.pick(['isAdmin', 'coins', 'userId', 'id', '__proto__', ''])] =
            rnd.pick(WRONG_TYPES);
        payload =
          how === 'duplicate'
            ? withDuplicate(body, key, rnd.pick(hostileValues(c.body.properties[key]!)))
            : JSON.stringify(body);
        what += ` body.${key}:${how}`;
      } else if (target === 'query' && c.query?.properties) {
        const key = rnd.pick(Object.keys(c.query.properties));
        const how = rnd.pick(['value', 'value', 'duplicate', 'bracket'] as const);
        if (how === 'value') query[key] = rnd.pick(hostileValues(c.query.properties[key]!));
        if (how === 'duplicate')
          query[key] = [query[key] ?? '1', rnd.pick(hostileValues(c.query.properties[key]!))];
        if (how === 'bracket') query[`${key}[]`] = '1';
        search = queryString(query);
        what += ` query.${key}:${how}`;
      } else if (target === 'params' && c.params?.properties) {
        const key = rnd.pick(Object.keys(c.params.properties));
        params[key] = rnd.pick([...hostileValues(c.params.properties[key]!), ...WEIRD_SEGMENTS]);
        path = fillPath(c.route, params);
        what += ` params.${key}`;
      } else if (target === 'whole') {
        payload = rnd.pick(HOSTILE_BODIES);
        headers['content-type'] ??= 'application/json';
        what += ' whole body';
      } else if (target === 'type') {
        const type = rnd.pick(CONTENT_TYPES);
        if (type) headers['content-type'] = type;
        else delete headers['content-type'];
        payload ??= rnd.pick(['{}', 'a=1&b=2', '<a/>']);
        what += ` content-type ${type || '(none)'}`;
      } else if (target === 'method') {
        method = rnd.pick(METHODS.filter((m) => m !== c.route.method));
        what += ` method ${method}`;
      } else if (target === 'path') {
        const how = rnd.pick([
          'trailing',
          'double',
          'upper',
          'encoded',
          'long',
          'segment',
          'dot',
        ] as const);
        if (how === 'trailing') path = `${path}/`;
        if (how === 'double') path = path.replace('/api/', '//api/');
        if (how === 'upper') path = path.toUpperCase();
        if (how === 'encoded')
          path = path.replace(/[a-z]/, (ch) => `%${ch.charCodeAt(0).toString(16)}`);
        if (how === 'long') path = `${path}/${'a'.repeat(8_000)}`;
        if (how === 'segment') path = `${path}/${rnd.pick(WEIRD_SEGMENTS)}`;
        if (how === 'dot') path = `/api/../${path.slice(1)}`;
        what += ` path ${how}`;
      } else if (target === 'headers') {
        const how = rnd.pick(['origin', 'csrf', 'cookie', 'forwarded', 'accept'] as const);
        if (how === 'origin')
          headers.origin = rnd.pick([
            'https://evil.example',
            'null',
            'http://localhost:80',
            'file://',
          ]);
        if (how === 'csrf')
          headers['x-csrf-token'] = rnd.pick([
            '',
            'garbage',
            'a'.repeat(5000),
            UNICODE_EDGES[0]!.replace('\u0000', ''),
          ]);
        if (how === 'cookie')
          headers.cookie = rnd.pick([
            'sid=garbage',
            'sid=; csrf=',
            `sid=${'a'.repeat(5000)}`,
            'vid=..; sid=%00',
            'a'.repeat(3000),
          ]);
        if (how === 'forwarded')
          headers['x-forwarded-for'] = rnd.pick([
            'not-an-ip',
            '1.1.1.1, 2.2.2.2',
            '::1',
            '999.1.1.1',
          ]);
        if (how === 'accept') headers.accept = rnd.pick(['text/html', 'image/png', '*/*;q=0']);
        what += ` header ${how}`;
      }
    }
    if (method === 'GET' || method === 'HEAD') payload = undefined;
    requests.push({
      method,
      url: `${path}${search}`,
      headers,
      payload,
      asMember,
      what: what.trim(),
    });
  }
  return requests;
}
