/**
 * The one list of session-ID and tracking query parameters, shared by the crawler (which strips
 * them by default) and the validator (which warns about them in sitemaps). Matching is on the
 * lower-cased parameter name.
 */

/** Session identifiers: a URL carrying one is a per-visitor copy of a page. */
export const SESSION_PARAMS: readonly string[] = [
  'phpsessid',
  'jsessionid',
  'aspsessionid',
  'asp.net_sessionid',
  'cfid',
  'cftoken',
  'sid',
  'sessionid',
  'session_id',
  'sessid',
  'zenid',
  'osCsid'.toLowerCase(),
  'xtcsid',
];

/** Campaign and click trackers: they never change the page. */
export const TRACKING_PARAMS: readonly string[] = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'utm_id',
  'utm_name',
  'utm_reader',
  'utm_referrer',
  'utm_social',
  'utm_social-type',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'hsctatracking',
  'mkt_tok',
  'vero_id',
  'oly_anon_id',
  'oly_enc_id',
  'rb_clickid',
  's_cid',
  'wickedid',
  'ref_src',
];

const SESSION_SET: ReadonlySet<string> = new Set(SESSION_PARAMS);
const TRACKING_SET: ReadonlySet<string> = new Set(TRACKING_PARAMS);

export type ParamKind = 'session' | 'tracking';

/** What a query parameter is, by name; undefined for an ordinary parameter. */
export function classifyParam(name: string): ParamKind | undefined {
  const n = name.toLowerCase();
  if (SESSION_SET.has(n)) return 'session';
  if (TRACKING_SET.has(n) || n.startsWith('utm_')) return 'tracking';
  return undefined;
}

/**
 * The session and tracking parameters of a URL, and also `;jsessionid=…`-style path parameters.
 * Returns the offending names (lower-cased), in order of appearance.
 */
export function findSessionOrTrackingParams(url: string): Array<{ name: string; kind: ParamKind }> {
  const found: Array<{ name: string; kind: ParamKind }> = [];
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return found;
  }
  const pathParam = /;(jsessionid|phpsessid|sid|sessionid)=/i.exec(u.pathname);
  if (pathParam !== null) found.push({ name: pathParam[1]!.toLowerCase(), kind: 'session' });
  for (const name of u.searchParams.keys()) {
    const kind = classifyParam(name);
    if (kind !== undefined) found.push({ name: name.toLowerCase(), kind });
  }
  return found;
}

/**
 * Removes session and tracking parameters (and `;jsessionid=…` path parameters), keeping every
 * other parameter in its order. The URL is otherwise serialised as WHATWG does.
 */
export function stripSessionAndTrackingParams(url: string): string {
  const u = new URL(url);
  u.pathname = u.pathname.replace(/;(?:jsessionid|phpsessid|sid|sessionid)=[^/;?#]*/gi, '');
  if (u.search !== '') {
    const kept = u.search
      .slice(1)
      .split('&')
      .filter((pair) => {
        if (pair === '') return false;
        const eq = pair.indexOf('=');
        const raw = eq === -1 ? pair : pair.slice(0, eq);
        let name = raw;
        try {
          name = decodeURIComponent(raw.replace(/\+/g, ' '));
        } catch {
          // A malformed escape is not one of ours: keep the parameter.
        }
        return classifyParam(name) === undefined;
      });
    // Rebuilt by hand: URLSearchParams would re-encode the parameters we keep.
    u.search = kept.length === 0 ? '' : `?${kept.join('&')}`;
  }
  return u.href;
}
