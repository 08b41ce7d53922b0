/**
 * `sitemapkit serve`: a built folder over HTTP, with the sitemap handler's HTTP semantics (ETag and
 * Last-Modified with 304, HEAD, gzip and Brotli by Accept-Encoding with Vary, Cache-Control), and
 * the browser view without XSLT: `NAME.html` renders `NAME.xml` (or `NAME.xml.gz`) when the folder
 * has no such page. The files themselves are sent exactly as they are on disk.
 */
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { htmlIndex, htmlUrlRow, htmlUrlsetFoot, htmlUrlsetHead } from '../handler/html-view.js';
import { CONTENT_TYPES, chooseEncoding, notModified, refusedEncodings } from '../handler/http.js';
import { parseSitemap } from '../parser/parse-sitemap.js';

const TYPES: Readonly<Record<string, string>> = {
  '.xml': CONTENT_TYPES['xml']!,
  '.txt': CONTENT_TYPES['txt']!,
  '.html': CONTENT_TYPES['html']!,
  '.xsl': CONTENT_TYPES['xsl']!,
  '.json': 'application/json; charset=utf-8',
  '.gz': 'application/gzip',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface ServeOptions {
  root: string;
  /** `Cache-Control` value. */
  cacheControl: string;
}

async function fileAt(path: string): Promise<Stats | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}

function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(`${text}\n`);
}

/** A request header by lower-case name, as the handler's HTTP helpers read it. */
function headerOf(req: IncomingMessage): (name: string) => string | null {
  return (name) => {
    const v = req.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
}

/** The HTML view of a sitemap file, as text chunks (read with the parser; streamed). */
async function* view(file: string, name: string): AsyncGenerator<string> {
  const xmlSuffix = file.endsWith('.gz') ? '.xml.gz' : '.xml';
  const children: Array<{ name: string; lastmod: string | undefined }> = [];
  let site = '';
  let started = false;
  for await (const item of parseSitemap(file)) {
    if ('kind' in item) {
      const last = item.loc.slice(item.loc.lastIndexOf('/') + 1).replace(/\.xml(\.gz)?$/, '');
      children.push({ name: last, lastmod: item.lastmod });
      continue;
    }
    if (!started) {
      site = new URL(item.loc).host;
      started = true;
      yield htmlUrlsetHead({ siteName: site, xmlSuffix }, name);
    }
    yield htmlUrlRow(item);
  }
  if (started) yield htmlUrlsetFoot();
  else yield htmlIndex({ siteName: site === '' ? 'this site' : site, xmlSuffix }, children);
}

/** Answers one request from the folder. */
export async function serveFolder(req: IncomingMessage, res: ServerResponse, o: ServeOptions): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    plain(res, 405, `${req.method} is not allowed here: use GET or HEAD`, { allow: 'GET, HEAD' });
    return;
  }
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    plain(res, 400, 'the request path is not valid percent-encoding');
    return;
  }
  if (path.endsWith('/')) path += 'sitemap.html';
  const root = resolve(o.root);
  const file = resolve(join(root, path));
  if (file !== root && !file.startsWith(root + sep)) {
    plain(res, 404, `${path} is outside the served folder`);
    return;
  }
  const header = headerOf(req);
  let stats = await fileAt(file);
  let source: string | undefined;
  if (stats === undefined && path.endsWith('.html')) {
    // The browser view: NAME.html renders NAME.xml (or NAME.xml.gz) when there is no such page.
    for (const candidate of [file.replace(/\.html$/, '.xml'), file.replace(/\.html$/, '.xml.gz')]) {
      stats = await fileAt(candidate);
      if (stats !== undefined) {
        source = candidate;
        break;
      }
    }
  }
  if (stats === undefined) {
    plain(res, 404, `${path} is not in the served folder (start from /sitemap.xml)`);
    return;
  }
  const etag = `W/"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}${source === undefined ? '' : '-view'}"`;
  const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000);
  const type =
    source !== undefined ? CONTENT_TYPES['html']! : (TYPES[extname(file)] ?? 'application/octet-stream');
  // Stored gzip files are sent as they are; everything else is compressed on the way out.
  const encoding = extname(file) === '.gz' ? 'identity' : chooseEncoding(header('accept-encoding'), true);
  if (encoding === null) {
    plain(res, 406, refusedEncodings(header('accept-encoding') ?? '', true), { vary: 'Accept-Encoding' });
    return;
  }
  const headers: Record<string, string> = {
    'content-type': type,
    'cache-control': o.cacheControl,
    vary: 'Accept-Encoding',
    etag,
    'last-modified': lastModified.toUTCString(),
    'x-content-type-options': 'nosniff',
  };
  if (notModified(header, etag, lastModified)) {
    res.writeHead(304, {
      etag,
      'last-modified': headers['last-modified']!,
      'cache-control': o.cacheControl,
      vary: 'Accept-Encoding',
    });
    res.end();
    return;
  }
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  else if (source === undefined) headers['content-length'] = String(stats.size);
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const body =
    source === undefined
      ? createReadStream(file)
      : Readable.from(view(source, path.slice(path.lastIndexOf('/') + 1, -'.html'.length)));
  if (encoding === 'identity') await pipeline(body, res);
  else if (encoding === 'gzip') await pipeline(body, createGzip(), res);
  else await pipeline(body, createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), res);
}
