/**
 * Search Console properties: a URL-prefix property (`https://www.example.com/`, scheme and
 * trailing slash included) or a domain property (`sc-domain:example.com`, every scheme and
 * subdomain). The API takes the property URL-encoded as one path segment.
 */
import { SitemapkitError } from '../../core/errors.js';

const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

function bad(message: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, {
    hint: 'give the property as Search Console names it: https://www.example.com/ (URL prefix) or sc-domain:example.com (domain)',
  });
}

/** The property as the API wants it; throws `ERR_OPTIONS` naming what is wrong. */
export function checkSite(site: string): string {
  if (typeof site !== 'string' || site.trim() === '') throw bad('site is missing');
  const s = site.trim();
  if (/^sc-domain:/i.test(s)) {
    const domain = s.slice('sc-domain:'.length).toLowerCase();
    if (!DOMAIN.test(domain)) throw bad(`site "${s}": "${domain}" is not a domain name`);
    return `sc-domain:${domain}`;
  }
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw bad(`site "${s}" is neither a URL nor sc-domain:DOMAIN`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw bad(`site "${s}" is not an http(s) URL`);
  if (u.search !== '' || u.hash !== '' || u.username !== '' || u.password !== '')
    throw bad(`site "${s}": a property has no query, fragment or user name`);
  if (!u.pathname.endsWith('/')) throw bad(`site "${s}": a URL-prefix property ends with a slash`);
  return u.href;
}

/** The property as one path segment of the sitemaps API. */
export function encodeSite(site: string): string {
  return encodeURIComponent(site);
}

/** Undefined when `url` lies in the property; else why not (for a sentence after the URL). */
export function inProperty(site: string, url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not an absolute URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'is not an http(s) URL';
  if (site.startsWith('sc-domain:')) {
    const domain = site.slice('sc-domain:'.length);
    const host = u.hostname.toLowerCase();
    return host === domain || host.endsWith(`.${domain}`)
      ? undefined
      : `is not in the domain property ${site}`;
  }
  return u.href.startsWith(site) ? undefined : `does not start with the URL-prefix property ${site}`;
}
