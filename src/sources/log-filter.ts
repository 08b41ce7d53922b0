/**
 * Which logged requests are pages of the site, and their URLs: the rules of `--from-log`. Pure:
 * a parsed line in, a URL or the reason it is left out.
 */
import { httpUrl } from '../core/checks.js';
import { SitemapkitError } from '../core/errors.js';
import { toUri } from '../core/url.js';
import { stripSessionAndTrackingParams } from '../core/url-params.js';
import { type LogLine, unescapeLogValue } from './log-format.js';

/**
 * Extensions of files that are no HTML page: styles, scripts, images, fonts, media, documents,
 * archives, data and feeds. A request whose last path segment ends in one of them is left out.
 * PDF is here too: listing PDFs in a sitemap is allowed, but a log cannot tell a document worth
 * listing from a download; `includeExtensions: ['pdf']` brings them back.
 */
export const LOG_EXCLUDED_EXTENSIONS: readonly string[] = [
  // styles, scripts, source maps, web manifests
  'css js mjs cjs map json webmanifest wasm',
  // images and icons
  'png jpg jpeg gif webp avif svg svgz ico bmp tif tiff heic cur',
  // fonts
  'woff woff2 ttf otf eot',
  // audio and video
  'mp3 mp4 m4a m4v webm ogg ogv oga wav flac aac mov avi mkv m3u8 ts',
  // documents and downloads
  'pdf doc docx xls xlsx ppt pptx odt ods csv txt rtf',
  'zip gz tgz bz2 xz rar 7z tar exe msi dmg pkg deb rpm apk iso bin',
  // data and feeds (sitemaps among them)
  'xml xsl rss atom rdf yaml yml',
].flatMap((group) => group.split(' '));

/** Paths that are the site's machinery, not its pages (compared lower-cased). */
const MACHINERY = new Set(['/robots.txt', '/favicon.ico', '/sitemap.xml', '/sitemap_index.xml', '/ads.txt']);

/** Why a parsed line gives no URL (counted, so the summary can say where the lines went). */
export type LeftOut =
  | 'status'
  | 'method'
  | 'asset'
  | 'machinery'
  | 'other-host'
  | 'outside-site'
  | 'not-a-url';

/** Options of the log source: which site, and which extensions are no page. */
export interface LogFilterOptions {
  /**
   * The site the log is of: paths are made absolute against it, and only URLs under it are
   * kept (`https://example.com/shop/` keeps `/shop/…`). Required.
   */
  site: string | URL;
  /** Extensions also left out (without the dot, any case). @default [] */
  excludeExtensions?: readonly string[] | undefined;
  /** Extensions of {@link LOG_EXCLUDED_EXTENSIONS} kept after all (`pdf`). @default [] */
  includeExtensions?: readonly string[] | undefined;
}

function extensionList(name: string, list: readonly string[] | undefined): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list))
    throw new SitemapkitError('ERR_OPTIONS', `${name} must be a list of extensions, such as ['pdf']`);
  return list.map((e) => {
    const ext = String(e).trim().replace(/^\./, '').toLowerCase();
    if (!/^[a-z0-9_+-]{1,16}$/.test(ext))
      throw new SitemapkitError('ERR_OPTIONS', `${name}: "${String(e)}" is not a file extension`, {
        hint: 'Give extensions such as pdf or .pdf (letters and digits, without a path).',
      });
    return ext;
  });
}

/** The filter's rules, resolved once. */
export class LogFilter {
  /** The site as WHATWG serialises it (ends in `/`). */
  readonly site: string;
  readonly #origin: string;
  readonly #host: string;
  readonly #excluded: ReadonlySet<string>;

  constructor(options: LogFilterOptions) {
    const u = httpUrl('site', options.site, 'the URL of the site the log is of');
    if (!u.pathname.endsWith('/')) u.pathname += '/';
    u.search = '';
    u.hash = '';
    this.site = u.href;
    this.#origin = u.origin;
    this.#host = u.hostname;
    const excluded = new Set([
      ...LOG_EXCLUDED_EXTENSIONS,
      ...extensionList('excludeExtensions', options.excludeExtensions),
    ]);
    for (const ext of extensionList('includeExtensions', options.includeExtensions)) excluded.delete(ext);
    this.#excluded = excluded;
  }

  /**
   * The page URL a parsed line is a visit of, or why it is none. Kept: GET requests answered 200
   * or 304, on the site's host (when the line names one), for a path with no asset extension.
   */
  judge(line: LogLine): string | LeftOut {
    const status = line.status;
    if (status !== '200' && status !== '304') return 'status';
    let method = line.method;
    let target: string | undefined;
    if (line.request !== undefined) {
      const sp = line.request.indexOf(' ');
      if (sp === -1) return 'not-a-url';
      method ??= line.request.slice(0, sp);
      const end = line.request.lastIndexOf(' ');
      target = end > sp ? line.request.slice(sp + 1, end) : line.request.slice(sp + 1);
    } else if (line.path !== undefined) {
      target = line.path;
      if (line.query !== undefined && !target.includes('?'))
        target += line.query.startsWith('?') ? line.query : `?${line.query}`;
    }
    // HEAD is left out on purpose: it comes from monitors and link checkers, and a page people
    // visit shows up as a GET of its own.
    if (method !== 'GET') return 'method';
    if (target === undefined) return 'not-a-url';
    if (line.vhost !== undefined && !this.#onHost(line.vhost)) return 'other-host';
    target = unescapeLogValue(target);
    if (target.startsWith('http://') || target.startsWith('https://')) {
      // The absolute form (a request through a proxy) names its host.
      let u: URL;
      try {
        u = new URL(target);
      } catch {
        return 'not-a-url';
      }
      if (u.hostname !== this.#host) return 'other-host';
      target = u.pathname + u.search;
    }
    if (target.charCodeAt(0) !== 47 /* / */) return 'not-a-url';
    const hashAt = target.indexOf('#');
    if (hashAt !== -1) target = target.slice(0, hashAt);
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    if (this.#isAsset(path)) return 'asset';
    const lower = path.toLowerCase();
    if (MACHINERY.has(lower) || lower.startsWith('/.well-known/')) return 'machinery';
    let url: string;
    try {
      // Joined as text: resolved against the origin, `//x` (a path with an empty first segment)
      // would read as a host.
      url = new URL(this.#origin + target).href;
      if (q !== -1 || path.includes(';')) url = stripSessionAndTrackingParams(url);
    } catch {
      return 'not-a-url';
    }
    if (!url.startsWith(this.site)) return 'outside-site';
    const checked = toUri(url);
    return checked.ok ? checked.url : 'not-a-url';
  }

  #onHost(vhost: string): boolean {
    let host = vhost.toLowerCase();
    // `%v:%p` and Host headers carry a port; an IPv6 literal keeps its brackets.
    if (host.startsWith('[')) host = host.slice(0, host.indexOf(']') + 1);
    else if (host.includes(':')) host = host.slice(0, host.indexOf(':'));
    if (host.endsWith('.')) host = host.slice(0, -1);
    return host === this.#host;
  }

  #isAsset(path: string): boolean {
    const slash = path.lastIndexOf('/');
    const dot = path.lastIndexOf('.');
    if (dot <= slash) return false;
    return this.#excluded.has(path.slice(dot + 1).toLowerCase());
  }
}
