/**
 * Google's refusals as sentences. Search Console answers 403 both when the service account is not
 * a user of the property and when the property does not exist as written, so a 403 says both and
 * names the e-mail address to add. Every failure is a {@link GoogleApiError} (`ERR_GOOGLE`) with
 * the HTTP status and a closed `kind` to branch on.
 */
import { SitemapkitError } from '../../core/errors.js';

/** What kind of refusal: branch on this, never on the message. */
export type GoogleFailureKind =
  /** The token endpoint refused the signed assertion (wrong key, deleted key, clock skew). */
  | 'auth'
  /** HTTP 401: the access token was not accepted. */
  | 'unauthenticated'
  /** HTTP 403: not a user of the property, or no such property. */
  | 'forbidden'
  /** HTTP 404: Google does not know the sitemap. */
  | 'not-found'
  /** HTTP 429: quota used up (after the retries, or a Retry-After longer than allowed). */
  | 'rate-limited'
  /** HTTP 5xx after the retries. */
  | 'server'
  /** HTTP 400: the request was not understood (a URL outside the property, a bad site). */
  | 'bad-request'
  /** Any other status, or an answer that is not the documented JSON. */
  | 'unexpected'
  /** No answer: the network failed (the message names the reason). */
  | 'network';

/** A request Google refused or never answered. */
export class GoogleApiError extends SitemapkitError {
  readonly kind: GoogleFailureKind;
  /** The HTTP status of the last answer, when there was one. */
  readonly status: number | undefined;

  constructor(
    kind: GoogleFailureKind,
    message: string,
    o: { where: string; status?: number | undefined; hint?: string | undefined; cause?: unknown },
  ) {
    super('ERR_GOOGLE', message, {
      where: o.where,
      cause: o.cause,
      ...(o.hint === undefined ? {} : { hint: o.hint }),
    });
    this.kind = kind;
    this.status = o.status;
  }
}

/** What a request was about, for the sentence. */
export interface ErrorSubject {
  /** The property, `https://www.example.com/` or `sc-domain:example.com`. */
  site: string;
  /** The service account's e-mail. */
  clientEmail: string;
  /** The sitemap a sitemaps call was about. */
  sitemap?: string;
  /** The page an inspection was about. */
  page?: string;
  /** The words for the call: `submitting`, `reading the sitemaps of`, `inspecting`. */
  doing: string;
}

/** The `error.message` of Google's JSON error body, when there is one. */
export function googleMessage(body: string): string | undefined {
  try {
    const v = JSON.parse(body) as { error?: { message?: unknown } | string; error_description?: unknown };
    if (typeof v.error === 'object' && typeof v.error.message === 'string') return v.error.message;
    if (typeof v.error_description === 'string') return v.error_description;
    if (typeof v.error === 'string') return v.error;
  } catch {
    // Not JSON: a proxy's page, say; a short excerpt is shown instead.
  }
  const t = body.trim().replace(/\s+/g, ' ');
  return t === '' ? undefined : t.length > 160 ? `${t.slice(0, 157)}...` : t;
}

/** The error for an API answer with status `status` (after retries, where they apply). */
export function apiError(
  s: ErrorSubject,
  status: number,
  body: string,
  where: string,
  extra = '',
): GoogleApiError {
  const said = googleMessage(body);
  const why = `HTTP ${status}${said === undefined ? '' : `: ${said}`}${extra}`;
  const what = s.sitemap ?? s.page ?? s.site;
  if (status === 401) {
    return new GoogleApiError(
      'unauthenticated',
      `Google did not accept the access token of ${s.clientEmail} while ${s.doing} ${what} (${why})`,
      {
        where,
        status,
        hint: 'check that the key file is current (a key deleted in the Cloud console stops working) and that the Search Console API is enabled for its project',
      },
    );
  }
  if (status === 403) {
    return new GoogleApiError(
      'forbidden',
      `Google refused ${s.doing} ${what} (${why}): add ${s.clientEmail} as a user of the property ${s.site} in Search Console (Settings → Users and permissions), and check that the property exists exactly as given, since Search Console answers 403 for a property it does not have too`,
      {
        where,
        status,
        hint: 'a URL-prefix property is written with its scheme and trailing slash (https://www.example.com/), a domain property as sc-domain:example.com',
      },
    );
  }
  if (status === 404) {
    return new GoogleApiError(
      'not-found',
      s.sitemap === undefined
        ? `Google does not know ${what} (${why})`
        : `Google does not know the sitemap ${s.sitemap} in ${s.site} (${why})`,
      {
        where,
        status,
        hint:
          s.sitemap === undefined
            ? undefined
            : 'submit it first: sitemapkit submit --engine google --site SITE --sitemap URL',
      },
    );
  }
  if (status === 429) {
    return new GoogleApiError('rate-limited', `Google's quota ran out while ${s.doing} ${what} (${why})`, {
      where,
      status,
      hint: 'try again later: the URL Inspection API allows 2,000 pages a day per property',
    });
  }
  if (status >= 500) {
    return new GoogleApiError('server', `Google's server failed while ${s.doing} ${what} (${why})`, {
      where,
      status,
      hint: 'try again later',
    });
  }
  if (status === 400) {
    return new GoogleApiError('bad-request', `Google could not take ${s.doing} ${what} (${why})`, {
      where,
      status,
      hint: 'check that the URL lies inside the property, with the same scheme and host',
    });
  }
  return new GoogleApiError('unexpected', `Google answered ${s.doing} ${what} unexpectedly (${why})`, {
    where,
    status,
  });
}
