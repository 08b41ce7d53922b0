/**
 * A local Google: the OAuth 2.0 token endpoint of service accounts, the Search Console sitemaps
 * API (webmasters/v3) and the URL Inspection API (searchconsole v1), on one real HTTP server on
 * 127.0.0.1, following the documented requests and answers:
 *
 * - `POST /token` takes `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=JWT`,
 *   verifies the RS256 signature with the test key's public key and the claims (`iss` the
 *   account, `scope` the webmasters scope, `aud` this endpoint's URL, `iat`/`exp` at most an hour
 *   apart and not expired) and answers `{access_token, expires_in, token_type}`, or 400
 *   `{error: "invalid_grant", error_description}` as Google does;
 * - `/webmasters/v3/sites/SITE/sitemaps[/FEEDPATH]`: PUT submits (200, empty body), GET one (the
 *   sitemaps resource, counts as int64 strings) or the list (`{sitemap: [...]}`, `{}` when empty);
 * - `POST /v1/urlInspection/index:inspect` with `{inspectionUrl, siteUrl}` answers
 *   `{inspectionResult: {inspectionResultLink, indexStatusResult}}`.
 *
 * Errors carry Google's JSON error body (`{error: {code, message, errors, status}}`): 401 for a
 * missing, unknown or expired bearer token, 403 for a property the account is not a user of (or
 * that does not exist: Google does not tell them apart), 404 for an unknown sitemap. Tests queue
 * answers (429 with Retry-After, 500) to play Google's bad days. Keys are made by the tests
 * (`generateKeyPairSync`): no private key is ever committed.
 */
import { generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from './http-server.js';

export const SCOPE = 'https://www.googleapis.com/auth/webmasters';
export const JWT_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface TestAccount {
  clientEmail: string;
  publicKey: KeyObject;
  /** The key file's JSON (its token_uri pointing at the fake). */
  keyFile: (tokenUri: string) => Record<string, string>;
}

/** A throwaway service account with a fresh 2048-bit key. */
export function testAccount(clientEmail = 'sitemaps@test-project.iam.gserviceaccount.com'): TestAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    clientEmail,
    publicKey,
    keyFile: (tokenUri) => ({
      type: 'service_account',
      project_id: 'test-project',
      private_key_id: 'test',
      private_key: pem,
      client_email: clientEmail,
      client_id: '1',
      token_uri: tokenUri,
    }),
  };
}

export interface FakeSitemap {
  path: string;
  lastSubmitted?: string;
  lastDownloaded?: string;
  isPending: boolean;
  isSitemapsIndex: boolean;
  type?: string;
  warnings: string;
  errors: string;
  contents?: Array<{ type: string; submitted: string; indexed: string }>;
}

export interface FakeProperty {
  /** E-mails of the users of the property. */
  users: Set<string>;
  sitemaps: Map<string, FakeSitemap>;
  /** indexStatusResult per page; others are "URL is unknown to Google". */
  pages: Map<string, Record<string, unknown>>;
}

export interface QueuedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface GoogleFake extends TestServer {
  /** Properties by their site string (`https://…/` or `sc-domain:…`). */
  properties: Map<string, FakeProperty>;
  /** Access tokens issued, with their expiry (ms since the epoch, the fake's clock). */
  tokens: Map<string, number>;
  /** Token requests answered 200. */
  issued: number;
  /** Lifetime of the tokens issued, seconds. */
  expiresIn: number;
  /** The fake's clock (ms since the epoch); tests move it to expire tokens. */
  nowMs: number;
  /** Answers given to the next API requests (not the token endpoint) before judging them. */
  queue: QueuedAnswer[];
  /** Answers given to the next token requests. */
  tokenQueue: QueuedAnswer[];
  /** Bodies of the requests, in order (the token requests' too). */
  bodies: string[];
  /** Adds a property with the given users. */
  property(site: string, users: string[]): FakeProperty;
}

function googleError(
  res: ServerResponse,
  code: number,
  status: string,
  message: string,
  reason: string,
): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(
    JSON.stringify(
      { error: { code, message, errors: [{ message, domain: 'global', reason }], status } },
      null,
      2,
    ),
  );
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      raw += d;
    });
    req.on('end', () => done(raw));
    req.on('error', fail);
  });
}

/** Why the assertion is refused, or undefined when it is good. */
function judgeAssertion(jwt: string, account: TestAccount, aud: string, nowS: number): string | undefined {
  const parts = jwt.split('.');
  if (parts.length !== 3) return 'Invalid JWT: not three parts';
  const [h, c, s] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return 'Invalid JWT: not JSON';
  }
  if (header['alg'] !== 'RS256' || header['typ'] !== 'JWT') return 'Invalid JWT: alg must be RS256';
  if (!verify('sha256', Buffer.from(`${h}.${c}`), account.publicKey, Buffer.from(s, 'base64url')))
    return 'Invalid JWT Signature.';
  if (claims['iss'] !== account.clientEmail) return 'Invalid issuer: unknown service account';
  if (claims['aud'] !== aud)
    return 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe (aud)';
  if (typeof claims['scope'] !== 'string' || !claims['scope'].split(' ').includes(SCOPE))
    return 'Invalid OAuth scope or ID token audience provided.';
  const iat = claims['iat'];
  const exp = claims['exp'];
  if (
    typeof iat !== 'number' ||
    typeof exp !== 'number' ||
    exp - iat > 3600 ||
    exp <= nowS ||
    iat > nowS + 300
  )
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.';
  return undefined;
}

function inProperty(site: string, url: string): boolean {
  if (site.startsWith('sc-domain:')) {
    const d = site.slice(10);
    const host = new URL(url).hostname;
    return host === d || host.endsWith(`.${d}`);
  }
  return url.startsWith(site);
}

/** Starts the fake for `account`; the token endpoint is `${origin}/token`. */
export async function startGoogleFake(account: TestAccount): Promise<GoogleFake> {
  let fake!: GoogleFake;
  const server = await startServer(
    {},
    {
      keepAlive: false,
      fallback: (req, res) => {
        void handle(req, res).catch(() => {
          if (!res.headersSent) res.writeHead(500);
          res.end();
        });
      },
    },
  );
  fake = Object.assign(server, {
    properties: new Map<string, FakeProperty>(),
    tokens: new Map<string, number>(),
    issued: 0,
    expiresIn: 3599,
    nowMs: Date.now(),
    queue: [] as QueuedAnswer[],
    tokenQueue: [] as QueuedAnswer[],
    bodies: [] as string[],
    property(site: string, users: string[]): FakeProperty {
      const p: FakeProperty = { users: new Set(users), sitemaps: new Map(), pages: new Map() };
      fake.properties.set(site, p);
      return p;
    },
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    fake.bodies.push(body);
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/token') return token(req, res, body);
    const queued = fake.queue.shift();
    if (queued !== undefined) {
      res.writeHead(queued.status, { 'content-type': 'application/json; charset=UTF-8', ...queued.headers });
      res.end(queued.body ?? JSON.stringify({ error: { code: queued.status, message: 'queued answer' } }));
      return;
    }
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expiry = auth === undefined ? undefined : fake.tokens.get(auth);
    if (expiry === undefined || expiry <= fake.nowMs) {
      return googleError(
        res,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        'authError',
      );
    }
    if (path === '/v1/urlInspection/index:inspect' && req.method === 'POST') return inspect(res, body);
    const m = /^\/webmasters\/v3\/sites\/([^/]+)\/sitemaps(?:\/([^/]+))?$/.exec(path);
    if (m === null) return googleError(res, 404, 'NOT_FOUND', 'Not Found', 'notFound');
    const site = decodeURIComponent(m[1]!);
    const feedpath = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
    const property = fake.properties.get(site);
    if (property === undefined || !property.users.has(account.clientEmail)) {
      return googleError(
        res,
        403,
        'PERMISSION_DENIED',
        `User does not have sufficient permission for site '${site}'. See also: https://support.google.com/webmasters/answer/2451999.`,
        'forbidden',
      );
    }
    if (feedpath === undefined) {
      if (req.method !== 'GET')
        return googleError(res, 405, 'METHOD_NOT_ALLOWED', 'Method not allowed', 'badMethod');
      const list = [...property.sitemaps.values()];
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(list.length === 0 ? {} : { sitemap: list }, null, 2));
      return;
    }
    if (req.method === 'PUT') {
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
        return googleError(res, 411, 'LENGTH_REQUIRED', 'Length Required', 'lengthRequired');
      if (!inProperty(site, feedpath))
        return googleError(
          res,
          400,
          'INVALID_ARGUMENT',
          'Invalid sitemap URL for this site',
          'invalidParameter',
        );
      const old = property.sitemaps.get(feedpath);
      property.sitemaps.set(feedpath, {
        path: feedpath,
        lastSubmitted: new Date(fake.nowMs).toISOString(),
        isPending: true,
        isSitemapsIndex: old?.isSitemapsIndex ?? false,
        warnings: old?.warnings ?? '0',
        errors: old?.errors ?? '0',
        ...(old?.lastDownloaded === undefined ? {} : { lastDownloaded: old.lastDownloaded }),
        ...(old?.contents === undefined ? {} : { contents: old.contents }),
      });
      res.writeHead(200).end();
      return;
    }
    const one = property.sitemaps.get(feedpath);
    if (one === undefined)
      return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', 'notFound');
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(one, null, 2));
  }

  async function inspect(res: ServerResponse, body: string): Promise<void> {
    let v: { inspectionUrl?: unknown; siteUrl?: unknown };
    try {
      v = JSON.parse(body) as typeof v;
    } catch {
      return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.', 'badRequest');
    }
    if (typeof v.inspectionUrl !== 'string' || typeof v.siteUrl !== 'string')
      return googleError(
        res,
        400,
        'INVALID_ARGUMENT',
        'inspectionUrl and siteUrl are required',
        'badRequest',
      );
    const property = fake.properties.get(v.siteUrl);
    if (property === undefined || !property.users.has(account.clientEmail))
      return googleError(
        res,
        403,
        'PERMISSION_DENIED',
        'You do not own this site, or the inspected URL is not part of this property.',
        'forbidden',
      );
    if (!inProperty(v.siteUrl, v.inspectionUrl))
      return googleError(
        res,
        403,
        'PERMISSION_DENIED',
        'You do not own this site, or the inspected URL is not part of this property.',
        'forbidden',
      );
    const known = property.pages.get(v.inspectionUrl) ?? {
      verdict: 'NEUTRAL',
      coverageState: 'URL is unknown to Google',
      robotsTxtState: 'ROBOTS_TXT_STATE_UNSPECIFIED',
      indexingState: 'INDEXING_STATE_UNSPECIFIED',
      pageFetchState: 'PAGE_FETCH_STATE_UNSPECIFIED',
    };
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(
      JSON.stringify({
        inspectionResult: {
          inspectionResultLink: `https://search.google.com/search-console/inspect?resource_id=${encodeURIComponent(v.siteUrl)}&id=x`,
          indexStatusResult: known,
          mobileUsabilityResult: { verdict: 'VERDICT_UNSPECIFIED' },
        },
      }),
    );
  }

  async function token(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const queued = fake.tokenQueue.shift();
    if (queued !== undefined) {
      res.writeHead(queued.status, { 'content-type': 'application/json; charset=utf-8', ...queued.headers });
      res.end(queued.body ?? JSON.stringify({ error: 'internal_failure' }));
      return;
    }
    const refuse = async (error: string, description: string): Promise<void> => {
      res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error, error_description: description }));
    };
    if (
      req.method !== 'POST' ||
      !/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')
    )
      return refuse('invalid_request', 'Expected a form-encoded POST');
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== JWT_GRANT) return refuse('unsupported_grant_type', 'Invalid grant_type');
    const why = judgeAssertion(
      form.get('assertion') ?? '',
      account,
      `${fake.origin}/token`,
      Math.floor(fake.nowMs / 1000),
    );
    if (why !== undefined) return refuse('invalid_grant', why);
    fake.issued++;
    const value = `ya29.test-${fake.issued}-${Math.random().toString(36).slice(2)}`;
    fake.tokens.set(value, fake.nowMs + fake.expiresIn * 1000);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ access_token: value, expires_in: fake.expiresIn, token_type: 'Bearer' }));
  }

  return fake;
}
