import { toUri } from './url.js';

/** What a page's `<link rel=canonical>` says about the page. */
export type CanonicalVerdict =
  | { kind: 'none' }
  | { kind: 'self'; url: string }
  | { kind: 'other'; url: string }
  | { kind: 'ignored'; href: string; reason: string };

/**
 * The one canonical rule of sitemapkit (writer `--from-dir`, crawler, validator): a relative
 * canonical is resolved against `<base href>` (itself resolved against the page URL) or the page
 * URL; only an unparseable or non-http(s) canonical is ignored, with a reason for the diagnostic.
 * The fragment is dropped before comparing (it never names another document).
 */
export function judgeCanonical(
  href: string | undefined,
  pageUrl: string,
  baseHref?: string,
): CanonicalVerdict {
  if (href === undefined) return { kind: 'none' };
  const raw = href.trim();
  if (raw === '') return { kind: 'ignored', href, reason: 'the canonical link has an empty href' };
  let base = pageUrl;
  if (baseHref !== undefined && baseHref.trim() !== '') {
    try {
      base = new URL(baseHref.trim(), pageUrl).href;
    } catch {
      // An unusable <base href> is ignored by browsers too; resolve against the page.
    }
  }
  let resolved: URL;
  try {
    resolved = new URL(raw, base);
  } catch {
    return { kind: 'ignored', href, reason: `the canonical "${raw}" cannot be parsed as a URL` };
  }
  if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') {
    return { kind: 'ignored', href, reason: `the canonical "${raw}" is not an http(s) URL` };
  }
  resolved.hash = '';
  const canon = toUri(resolved.href);
  const page = toUri(pageUrl);
  const url = canon.ok ? canon.url : resolved.href;
  const self = page.ok ? page.url.replace(/#.*$/, '') : pageUrl;
  return url === self ? { kind: 'self', url } : { kind: 'other', url };
}
