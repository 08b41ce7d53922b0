/**
 * OAuth 2.0 for a service account (RFC 7523, Google's "server to server" flow): a JWT signed with
 * RS256 by the account's key, whose `aud` is the key file's `token_uri`, exchanged there for an
 * access token. The token is cached until shortly before it expires, so a run asks once.
 */
import { sign } from 'node:crypto';
import type { ServiceAccount } from './credentials.js';
import { GoogleApiError, googleMessage } from './errors.js';
import { type Answer, type ExchangeContext, exchange, type GoogleRequest, jsonOf } from './exchange.js';

/** Read and write Search Console data (submitting sitemaps needs write). */
export const WEBMASTERS_SCOPE = 'https://www.googleapis.com/auth/webmasters';

/** The grant type of a JWT assertion (RFC 7523 §2.1). */
export const JWT_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Google accepts assertions valid for at most an hour. */
const LIFETIME_S = 3600;

/** A token is renewed this long before Google says it expires (clock skew, a slow request). */
export const TOKEN_MARGIN_MS = 60_000;

/** What a dry run prints in place of a secret. */
export const REDACTED = '[redacted]';

const base64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/** The signed assertion `header.claims.signature` for `account`, issued at `nowMs`. */
export function signAssertion(account: ServiceAccount, scope: string, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({ iss: account.clientEmail, scope, aud: account.tokenUri, iat, exp: iat + LIFETIME_S }),
  );
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), account.privateKey);
  return `${header}.${claims}.${base64url(signature)}`;
}

/** The token request, with the assertion redacted when `assertion` is undefined. */
export function tokenRequest(account: ServiceAccount, assertion: string | undefined): GoogleRequest {
  const form = new URLSearchParams({ grant_type: JWT_GRANT, assertion: assertion ?? REDACTED });
  return {
    method: 'POST',
    url: account.tokenUri,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body:
      assertion === undefined
        ? form.toString().replace(encodeURIComponent(REDACTED), REDACTED)
        : form.toString(),
  };
}

/** Access tokens of one service account, asked for when none is valid. */
export class TokenCache {
  readonly #account: ServiceAccount;
  readonly #ctx: ExchangeContext;
  #token: { value: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;
  /** Tokens obtained from the endpoint so far. */
  obtained = 0;

  constructor(account: ServiceAccount, ctx: ExchangeContext) {
    this.#account = account;
    this.#ctx = ctx;
  }

  /** A valid access token: the cached one, or a new one. */
  async get(): Promise<string> {
    const t = this.#token;
    if (t !== undefined && this.#ctx.now() < t.expiresAt - TOKEN_MARGIN_MS) return t.value;
    // Concurrent callers share one exchange.
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets the cached token (after a 401: it was revoked, or the clocks disagree). */
  drop(): void {
    this.#token = undefined;
  }

  async #fetch(): Promise<string> {
    const a = this.#account;
    const req = tokenRequest(a, signAssertion(a, WEBMASTERS_SCOPE, this.#ctx.now()));
    const answer: Answer = await exchange(this.#ctx, req, `getting an access token for ${a.clientEmail}`);
    if (answer.status !== 200) {
      const said = googleMessage(answer.body);
      throw new GoogleApiError(
        answer.status === 429 ? 'rate-limited' : answer.status >= 500 ? 'server' : 'auth',
        `the token endpoint refused the service account ${a.clientEmail} (HTTP ${answer.status}${said === undefined ? '' : `: ${said}`}${answer.note})`,
        {
          where: a.tokenUri,
          status: answer.status,
          hint:
            answer.status >= 500 || answer.status === 429
              ? 'try again later'
              : 'check that the key file is current (not deleted in the Cloud console) and that this machine’s clock is right',
        },
      );
    }
    const v = jsonOf(answer.body, a.tokenUri, 'the token request');
    const value = v['access_token'];
    const expiresIn = v['expires_in'];
    if (typeof value !== 'string' || value === '' || typeof expiresIn !== 'number' || !(expiresIn > 0)) {
      throw new GoogleApiError(
        'unexpected',
        `${a.tokenUri} answered without an access_token and expires_in`,
        { where: a.tokenUri, status: answer.status },
      );
    }
    this.#token = { value, expiresAt: this.#ctx.now() + expiresIn * 1000 };
    this.obtained++;
    return value;
  }
}
