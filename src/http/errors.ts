/**
 * How a request failed, as a closed set of reasons: callers branch on `reason`, never on the
 * message. Every failure is a `SitemapkitError` (`ERR_HTTP`, or `ERR_ABORTED` for the caller's
 * own abort) so the rest of the library keeps one error class.
 */
import { SitemapkitError } from '../core/errors.js';

/** Why a request failed. `network` is any other transport failure (the message names its code). */
export type HttpFailureReason =
  | 'timeout'
  | 'dns'
  | 'refused'
  | 'reset'
  | 'tls'
  | 'too-large'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'bad-redirect'
  | 'bad-scheme'
  | 'address-refused'
  | 'aborted'
  | 'network';

/** A failed request: `reason` says what kind of failure it was; `where` names the URL. */
export class HttpError extends SitemapkitError {
  readonly reason: HttpFailureReason;
  /** The HTTP status of the last response, when one came (redirect failures). */
  readonly status: number | undefined;
  /** The redirect targets followed before the failure. */
  readonly redirects: readonly string[];
  /** The system error code or short cause behind a transport failure (`ECONNREFUSED`). */
  readonly detail: string | undefined;

  constructor(
    reason: HttpFailureReason,
    message: string,
    where: string,
    extra: {
      status?: number;
      redirects?: readonly string[];
      cause?: unknown;
      hint?: string;
      detail?: string;
    } = {},
  ) {
    const hint = extra.hint ?? HINTS[reason];
    super(reason === 'aborted' ? 'ERR_ABORTED' : 'ERR_HTTP', message, {
      where,
      cause: extra.cause,
      ...(hint === undefined ? {} : { hint }),
    });
    this.reason = reason;
    this.status = extra.status;
    this.redirects = extra.redirects ?? [];
    this.detail = extra.detail;
  }
}

const HINTS: Record<HttpFailureReason, string | undefined> = {
  timeout: 'check that the host is reachable from here, or raise the timeout',
  dns: 'check the host name',
  refused: 'check that the server runs and the port is right',
  reset: 'the server closed the connection; try again later',
  tls: 'check the certificate of the server',
  'too-large': 'raise the size limit, or split the file',
  'too-many-redirects': 'link to the final URL',
  'redirect-loop': 'link to the final URL',
  'bad-redirect': 'link to the final URL',
  'bad-scheme': 'only http and https URLs are fetched',
  'address-refused':
    'a public URL led to a private address; pass addressPolicy "off" (CLI: --allow-private-addresses) if that is intended',
  aborted: undefined,
  network: 'check that the host is reachable from here',
};

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_CERT)/;

/** The failure reason and a short detail (the system error code) of a transport error. */
export function describeNetworkError(cause: unknown): { reason: HttpFailureReason; detail: string } {
  if (cause instanceof HttpError) return { reason: cause.reason, detail: cause.message };
  const e = cause as { code?: unknown; message?: string; cause?: { code?: unknown; message?: string } };
  const code =
    (typeof e?.cause?.code === 'string' ? e.cause.code : undefined) ??
    (typeof e?.code === 'string' ? e.code : undefined);
  const detail = code ?? e?.cause?.message ?? e?.message ?? String(cause);
  let reason: HttpFailureReason = 'network';
  if (code === undefined) reason = 'network';
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL')
    reason = 'dns';
  else if (code === 'ECONNREFUSED') reason = 'refused';
  else if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_CLOSED' ||
    code === 'ECONNABORTED'
  )
    reason = 'reset';
  else if (
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  )
    reason = 'timeout';
  else if (TLS_CODE.test(code)) reason = 'tls';
  return { reason, detail };
}
