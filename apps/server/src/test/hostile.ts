import fc from 'fast-check';

/**
 * Requests for fuzzing (issue 14), derived from the published OpenAPI document (and GoTrue's
 * operations, below): each request follows its operation's schema, with the fixtures' ids so
 * it reaches the database, and then most often has one part (a path segment, a query or
 * header parameter, any field of the body, or the whole body) replaced by a hostile value:
 * NUL and control characters, lone surrogates, huge strings and numbers, wrong types, deep
 * nesting, malformed JSON.
 */

/** The part of JSON Schema the document's request schemas use. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  example?: unknown;
};

type Parameter = { in: string; name: string; required?: boolean; schema: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

export type FuzzRequest = {
  method: string;
  /** The operation, as the document names it (`POST /api/queues/{queueId}/sub-queues`). */
  operation: string;
  url: string;
  /** Who sends it: the test adds the caller's credentials. */
  caller: string;
  headers: Record<string, string>;
  /** A JSON value, or raw text sent with `headers['content-type']`. */
  payload?: unknown;
};

/** The fixtures: values of fields and parameters by name, and every id (for other uuids). */
export type Known = { byName: Record<string, unknown>; ids: string[] };

/**
 * Nesting 5,000 deep (sign-up `data` once was): too deep for JSON.stringify inside the
 * generators' stack, so fields hold a marker that `toJson` replaces with the text.
 */
const DEEP_OBJECT = '<5000 nested objects>';
const DEEP_ARRAY = '<5000 nested arrays>';
const deepText: Record<string, string> = {
  [JSON.stringify(DEEP_OBJECT)]: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
  [JSON.stringify(DEEP_ARRAY)]: `${'['.repeat(5000)}1${']'.repeat(5000)}`,
};

function toJson(value: unknown): string {
  let text = JSON.stringify(value) ?? '';
  for (const [marker, deep] of Object.entries(deepText)) text = text.replaceAll(marker, deep);
  return text;
}

/** What fuzzing found (or might find) to break a server, by the kind of value they replace. */
const hostileStrings = [
  '\u0000',
  'a\u0000b',
  `${'x'.repeat(10)}\u0000`,
  '\ud800',
  'x\udfffy',
  '\u0007\u001b[31m\u007f',
  'two\nlines',
  '',
  '   ',
  'x'.repeat(5000),
  'é'.repeat(3000),
  '😀\u202e'.repeat(40),
  "'; drop table companies; --",
];
const hostileNumbers = [
  2147483648,
  -2147483649,
  2147483647,
  2 ** 53 + 2,
  1e308,
  -1e308,
  -1,
  0,
  0.5,
];
const hostileValues: unknown[] = [
  ...hostileStrings,
  ...hostileNumbers,
  null,
  true,
  [],
  {},
  ['\u0000'],
  { '\u0000': 1 },
  DEEP_OBJECT,
  DEEP_ARRAY,
];

/** Mostly a hostile value of the same kind as `original` (a string for a string), else any. */
function hostileFor(original: unknown, n: number): unknown {
  const sameKind: readonly unknown[] =
    typeof original === 'string'
      ? hostileStrings
      : typeof original === 'number'
        ? hostileNumbers
        : [];
  return n % 4 === 0 || sameKind.length === 0
    ? pick(hostileValues, n >> 2)
    : pick(sameKind, n >> 2);
}

/** Path segments: malformed escapes, NUL, over the router's 100-character limit, huge numbers. */
const hostileSegments = [
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%',
  'a'.repeat(101),
  'a'.repeat(5000),
  '2147483648',
  '-1',
  '0',
  '1e400',
  '..',
  '%2F',
  '%20',
  encodeURIComponent('😀'),
  encodeURIComponent('\u0007'),
];

/** Header values the HTTP parser would carry (no control characters). */
const hostileHeaders = ['', 'x'.repeat(5000), 'Not/A_Zone', '../../etc/passwd', '😀', '\u00ff'];

/** Raw bodies: not JSON, not an object, prototype pollution, another media type. */
const hostileBodies: Array<{ payload: string; contentType: string }> = [
  { payload: '{"name":', contentType: 'application/json' },
  { payload: '', contentType: 'application/json' },
  { payload: '{"__proto__":{"admin":true}}', contentType: 'application/json' },
  { payload: '{"constructor":{"prototype":{"admin":true}}}', contentType: 'application/json' },
  { payload: 'name=x', contentType: 'application/x-www-form-urlencoded' },
  { payload: 'a,b', contentType: 'text/csv' },
  { payload: '\u0000', contentType: 'application/json' },
  { payload: `"${'x'.repeat(1_100_000)}"`, contentType: 'application/json' },
];

export function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 10; hops += 1) {
    const name = current.$ref.replace('#/components/schemas/', '');
    current = doc.components?.schemas?.[name] ?? {};
  }
  return current;
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/** A string of the schema's pattern (a code, a time); free text (`\p{Cc}`) takes any printable text. */
function patterned(schema: JsonSchema): fc.Arbitrary<string> | undefined {
  if (schema.example !== undefined) return fc.constant(String(schema.example));
  if (!schema.pattern || schema.pattern.includes('\\p{Cc}')) return undefined;
  const { minLength = 0, maxLength = Infinity } = schema;
  return fc
    .stringMatching(new RegExp(schema.pattern))
    .filter((value) => value.length >= minLength && value.length <= maxLength);
}

/** Whether a fixture's value suits the schema of a field of its name (`userId`: a uuid or an email). */
function fits(value: unknown, schema: JsonSchema): boolean {
  if (schema.format === 'uuid') return typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value);
  if (schema.format === 'email') return typeof value === 'string' && value.includes('@');
  return true;
}

/** A value that follows `schema`; the fixtures' value where the field's name is known. */
function plausible(
  doc: OpenApiDocument,
  raw: JsonSchema,
  name: string,
  known: Known,
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (name in known.byName && fits(known.byName[name], schema)) {
    return fc.constant(known.byName[name]);
  }
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => plausible(doc, s, name, known, depth)));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (typeOf(schema)) {
    case 'string': {
      if (schema.format === 'uuid') return fc.constantFrom(...known.ids, crypto.randomUUID());
      if (schema.format === 'date-time') {
        return fc.constant(new Date(Date.now() + 86_400_000).toISOString());
      }
      if (schema.format === 'date') return fc.constant(new Date().toISOString().slice(0, 10));
      if (schema.format === 'email') return fc.constantFrom('fuzz@example.test', 'x@example.test');
      if (schema.format === 'uri') return fc.constant('https://example.test/logo.png');
      return (
        patterned(schema) ??
        fc.string({
          minLength: schema.minLength ?? 0,
          maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 24, 24)),
        })
      );
    }
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -5, -1000),
        max: Math.min(schema.maximum ?? 1000, 100_000),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(doc, schema.items ?? {}, name, known, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object': {
      if (depth > 4) return fc.constant({});
      const properties = schema.properties ?? {};
      return fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, s]) => [
            key,
            plausible(doc, s, key, known, depth + 1),
          ]),
        ),
        { requiredKeys: (schema.required ?? []).filter((key) => key in properties) },
      );
    }
    case 'null':
      return fc.constant(null);
    default:
      return fc.constant('value');
  }
}

/** A request before it is sent: `{name}` placeholders in the path, values by part. */
type Parts = {
  method: string;
  path: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
};

/** Where one hostile value goes; `raw` sends one of the raw bodies instead. */
type Mutation = { at: number; pick: number } | { raw: number } | null;

const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 7, arbitrary: fc.record({ at: fc.nat(), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.nat().map((raw) => ({ raw })) },
);

/** Every place of a request a hostile value can go: parameters, and every node of the body. */
function places(parts: Parts): Array<{ part: keyof Parts; path: Array<string | number> }> {
  const found: Array<{ part: keyof Parts; path: Array<string | number> }> = [];
  for (const part of ['params', 'query', 'headers'] as const) {
    for (const name of Object.keys(parts[part])) found.push({ part, path: [name] });
  }
  if (parts.body === undefined) return found;
  const walk = (value: unknown, path: Array<string | number>) => {
    found.push({ part: 'body', path });
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, [...path, i]);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
      found.push({ part: 'body', path: [...path, 'unexpected'] });
    }
  };
  walk(parts.body, []);
  return found;
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

function mutate(
  original: Parts,
  mutation: Mutation,
): Parts & { raw?: (typeof hostileBodies)[number] } {
  const parts = structuredClone(original);
  if (mutation === null) return parts;
  if ('raw' in mutation) {
    return parts.body === undefined ? parts : { ...parts, raw: pick(hostileBodies, mutation.raw) };
  }
  const all = places(parts);
  if (all.length === 0) return parts;
  const { part, path } = pick(all, mutation.at);
  const value =
    part === 'params' ? pick(hostileSegments, mutation.pick) : pick(hostileHeaders, mutation.pick);
  if (part === 'body' && path.length === 0) {
    return { ...parts, body: hostileFor(parts.body, mutation.pick) };
  }
  let target = parts[part] as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  target[last] =
    part === 'body' || part === 'query' ? hostileFor(target[last], mutation.pick) : value;
  return parts;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : toJson(value));

/** The request as sent: hostile path segments stay as they are (already URL text). */
function toRequest(
  parts: ReturnType<typeof mutate>,
  prefix: string,
  caller: string,
  headers: Record<string, string>,
): FuzzRequest {
  const url = parts.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = parts.params[name];
    return hostileSegments.includes(value as string)
      ? String(value)
      : encodeURIComponent(asText(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(parts.query)) search.append(key, asText(value));
  const request: FuzzRequest = {
    method: parts.method,
    operation: `${parts.method} ${prefix}${parts.path}`,
    url: `${prefix}${url}${search.size > 0 ? `?${search}` : ''}`,
    caller,
    headers: { ...headers },
  };
  for (const [name, value] of Object.entries(parts.headers)) request.headers[name] = asText(value);
  if (parts.raw) {
    request.payload = parts.raw.payload;
    request.headers['content-type'] = parts.raw.contentType;
  } else if (parts.body !== undefined) {
    request.payload = toJson(parts.body);
    request.headers['content-type'] = 'application/json';
  }
  return request;
}

/**
 * A plausible DELETE removes a fixture for the rest of the run: they are asked a quarter as
 * often, so the fixtures serve most of the run.
 */
const weighted = (method: string, arbitrary: fc.Arbitrary<Parts>) => ({
  arbitrary,
  weight: method === 'DELETE' ? 1 : 4,
});

/** Who sends it, by name (the test adds their headers): the first reaches the most code. */
function callerOf(callers: readonly [string, ...string[]]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(callers[0]) },
    { weight: 2, arbitrary: fc.constantFrom(...callers) },
  );
}

/** Every operation of the OpenAPI document, as requests with at most one hostile part. */
export function requestsFrom(
  doc: OpenApiDocument,
  known: Known,
  callers: readonly [string, ...string[]],
): fc.Arbitrary<FuzzRequest> {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const part = (where: string) => {
        const list = parameters.filter((p) => p.in === where);
        return fc.record(
          Object.fromEntries(list.map((p) => [p.name, plausible(doc, p.schema, p.name, known)])),
          { requiredKeys: list.filter((p) => p.required).map((p) => p.name) },
        );
      };
      const body = operation.requestBody?.content?.['application/json']?.schema;
      return weighted(
        method.toUpperCase(),
        fc
          .record({
            params: part('path'),
            query: part('query'),
            // Signed-in browsers send their time zone: a header a hostile value may replace.
            headers: part('header').map((headers) => ({
              'x-user-timezone': 'Europe/London',
              ...headers,
            })),
            body: body ? plausible(doc, body, '', known) : fc.constant(undefined),
          })
          .map((values): Parts => ({ method: method.toUpperCase(), path, ...values })),
      );
    }),
  );
  return fc
    .record({
      parts: fc.oneof(...operations),
      mutation: mutations,
      caller: callerOf(callers),
    })
    .map(({ parts, mutation, caller }) => toRequest(mutate(parts, mutation), '', caller, {}));
}

/**
 * The GoTrue-compatible API under /auth/v1 is not in the OpenAPI document (its contract is
 * GoTrue's): its operations, the body fields each reads (CONTRACT.md) and its query parameters.
 */
const gotrueOperations: Array<[method: string, path: string, fields: string[], query?: string[]]> =
  [
    [
      'POST',
      '/signup',
      ['email', 'phone', 'password', 'data', 'channel', 'code_challenge', 'code_challenge_method'],
      ['redirect_to'],
    ],
    [
      'POST',
      '/token',
      [
        'email',
        'phone',
        'password',
        'refresh_token',
        'auth_code',
        'code_verifier',
        'provider',
        'id_token',
        'access_token',
        'nonce',
        'link_identity',
      ],
      ['grant_type'],
    ],
    ['POST', '/verify', ['type', 'email', 'phone', 'token', 'token_hash'], ['redirect_to']],
    ['GET', '/verify', [], ['type', 'token', 'redirect_to']],
    [
      'POST',
      '/otp',
      [
        'email',
        'phone',
        'data',
        'create_user',
        'channel',
        'code_challenge',
        'code_challenge_method',
      ],
      ['redirect_to'],
    ],
    ['POST', '/recover', ['email', 'code_challenge', 'code_challenge_method'], ['redirect_to']],
    ['POST', '/resend', ['email', 'phone', 'type'], ['redirect_to']],
    ['GET', '/user', []],
    [
      'PUT',
      '/user',
      [
        'email',
        'phone',
        'password',
        'nonce',
        'data',
        'app_metadata',
        'code_challenge',
        'code_challenge_method',
      ],
      ['redirect_to'],
    ],
    ['GET', '/reauthenticate', []],
    ['POST', '/logout', [], ['scope']],
    ['GET', '/settings', []],
    ['GET', '/health', []],
    ['GET', '/.well-known/jwks.json', []],
    ['GET', '/dev/mailbox', [], ['to']],
    [
      'GET',
      '/authorize',
      [],
      ['provider', 'redirect_to', 'scopes', 'code_challenge', 'code_challenge_method'],
    ],
    ['GET', '/callback', [], ['state', 'code', 'error', 'error_description']],
    ['POST', '/callback', ['state', 'code', 'error', 'error_description']],
    ['GET', '/user/identities/authorize', [], ['provider', 'redirect_to']],
    ['DELETE', '/user/identities/:identityId', []],
    // Not offered: answered as GoTrue does with SAML off.
    ['POST', '/sso', ['domain', 'provider_id', 'redirect_to', 'skip_http_redirect']],
    ['GET', '/sso/saml/metadata', []],
    ['POST', '/sso/saml/acs', ['SAMLResponse', 'RelayState']],
    ['POST', '/factors', ['factor_type', 'friendly_name', 'issuer', 'phone']],
    ['POST', '/factors/:factorId/challenge', ['channel']],
    ['POST', '/factors/:factorId/verify', ['challenge_id', 'code']],
    ['DELETE', '/factors/:factorId', []],
    ['GET', '/admin/users', [], ['page', 'per_page', 'filter', 'sort']],
    [
      'POST',
      '/admin/users',
      [
        'email',
        'phone',
        'password',
        'password_hash',
        'id',
        'email_confirm',
        'phone_confirm',
        'user_metadata',
        'app_metadata',
        'role',
        'ban_duration',
        'aud',
      ],
    ],
    ['GET', '/admin/users/:userId', []],
    [
      'PUT',
      '/admin/users/:userId',
      [
        'email',
        'phone',
        'password',
        'email_confirm',
        'user_metadata',
        'app_metadata',
        'role',
        'ban_duration',
      ],
    ],
    ['DELETE', '/admin/users/:userId', ['should_soft_delete']],
    ['GET', '/admin/users/:userId/factors', []],
    ['DELETE', '/admin/users/:userId/factors/:factorId', []],
    ['POST', '/invite', ['email', 'data'], ['redirect_to']],
    [
      'POST',
      '/admin/generate_link',
      ['type', 'email', 'password', 'new_email', 'data', 'redirect_to'],
    ],
  ];

/** What a GoTrue client would send in each field and parameter. */
function gotrueValues(known: Known): Record<string, fc.Arbitrary<unknown>> {
  const email = fc.constantFrom('fuzz@example.test', String(known.byName.email));
  const metadata = fc.constantFrom({ name: 'Fuzz' }, {}, { name: null });
  const uuid = fc.oneof(fc.constantFrom(...known.ids), fc.uuid());
  const otpTypes = [
    'signup',
    'invite',
    'magiclink',
    'recovery',
    'email_change',
    'email',
    'sms',
    'phone_change',
  ];
  return {
    email,
    new_email: email,
    phone: fc.constantFrom('+447911123456', '4915112345678'),
    password: fc.constantFrom('correct horse battery staple', 'short'),
    data: metadata,
    user_metadata: metadata,
    app_metadata: metadata,
    channel: fc.constantFrom('sms', 'whatsapp'),
    code_challenge: fc.constant('c'.repeat(43)),
    code_challenge_method: fc.constantFrom('s256', 'plain'),
    refresh_token: fc.string({ maxLength: 43 }),
    auth_code: uuid,
    code_verifier: fc.constant('v'.repeat(64)),
    provider: fc.constantFrom('oidc', 'google', 'github', 'email'),
    id_token: fc.constant('eyJhbGciOiJSUzI1NiJ9.e30.c2ln'),
    access_token: fc.string({ maxLength: 40 }),
    nonce: fc.string({ maxLength: 20 }),
    link_identity: fc.boolean(),
    type: fc.constantFrom(...otpTypes),
    token: fc.constantFrom('123456', '000000'),
    token_hash: fc.constant('ab'.repeat(32)),
    create_user: fc.boolean(),
    factor_type: fc.constantFrom('totp', 'phone'),
    friendly_name: fc.string({ maxLength: 20 }),
    issuer: fc.constantFrom('UpNext'),
    challenge_id: uuid,
    code: fc.constantFrom('123456', 'abc'),
    state: fc.string({ maxLength: 40 }),
    error: fc.constantFrom('access_denied'),
    error_description: fc.string({ maxLength: 40 }),
    password_hash: fc.constant('$2a$10$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY'),
    id: uuid,
    email_confirm: fc.boolean(),
    phone_confirm: fc.boolean(),
    role: fc.constantFrom('authenticated', 'service_role'),
    ban_duration: fc.constantFrom('1h', 'none', '876000h'),
    aud: fc.constantFrom('authenticated'),
    should_soft_delete: fc.boolean(),
    redirect_to: fc.constantFrom('http://localhost:3000/after', 'https://evil.example/'),
    grant_type: fc.constantFrom('password', 'refresh_token', 'pkce', 'id_token', 'web3', 'magic'),
    scope: fc.constantFrom('global', 'local', 'others'),
    scopes: fc.constantFrom('openid email'),
    to: email,
    page: fc.integer({ min: -1, max: 3 }),
    per_page: fc.integer({ min: -1, max: 1001 }),
    filter: fc.string({ maxLength: 10 }),
    sort: fc.constantFrom('created_at', 'created_at asc', 'created_at DESC', 'email', ''),
  };
}

/** Requests for every /auth/v1 operation, GoTrue's fields plausible, at most one hostile. */
export function gotrueRequests(
  known: Known,
  callers: readonly [string, ...string[]],
): fc.Arbitrary<FuzzRequest> {
  const values = gotrueValues(known);
  const plausibleValue = (name: string) => values[name] ?? fc.constant('value');
  const fields = (names: string[]) =>
    fc.record(Object.fromEntries(names.map((name) => [name, plausibleValue(name)])), {
      requiredKeys: [],
    });
  const operations = gotrueOperations.map(([method, path, body, query = []]) => {
    const template = path.replace(/:(\w+)/g, '{$1}');
    const segments = [...path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
    return weighted(
      method,
      fc
        .record({
          params: fc.record(
            Object.fromEntries(
              segments.map((s) => [s, fc.constant(known.byName[s] ?? crypto.randomUUID())]),
            ),
          ),
          query: fields(query),
          headers: fc.constant({}),
          body: method === 'GET' ? fc.constant(undefined) : fields(body),
        })
        .map((values): Parts => ({ method, path: template, ...values })),
    );
  });
  return fc
    .record({
      parts: fc.oneof(...operations),
      mutation: mutations,
      caller: callerOf(callers),
      // auth-js sends it; without it GoTrue answers in its older error shape.
      versioned: fc.boolean(),
    })
    .map(({ parts, mutation, caller, versioned }) =>
      toRequest(
        mutate(parts, mutation),
        '/auth/v1',
        caller,
        versioned ? { 'x-supabase-api-version': '2024-01-01' } : {},
      ),
    );
}
