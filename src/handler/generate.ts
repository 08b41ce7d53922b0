/**
 * Files generated from a source, straight from the writer's engine: a pass over the entries cuts
 * the files exactly as `writeSitemaps` would, and only the requested file's text comes out, in
 * chunks of about 64 KB, as the reader asks for them (memory stays flat for a 50,000-URL child).
 */
import type { SitemapEntry } from '../core/entry.js';
import { HashedStringSet } from '../core/hash.js';
import { SitemapEngine } from '../writer/engine.js';
import { textLine, URLSET_CLOSE, urlsetOpen } from '../writer/serialize.js';
import { each, type Normalizer, withoutSection } from './entries.js';
import { htmlUrlRow, htmlUrlsetFoot, htmlUrlsetHead } from './html-view.js';
import type { ResolvedHandlerOptions } from './options.js';
import type { EntryList } from './types.js';

export type Format = 'xml' | 'txt' | 'html';

const CHUNK = 64 * 1024;

interface Handle {
  name: string;
  target: boolean;
  lastmodMs: number;
  lastmod: string | undefined;
}

/** A child of the set as the index lists it. */
export interface Child {
  /** Name without extension: `sitemap-00001`, `sitemap-blog-00002`, `products-a`. */
  name: string;
  lastmod: string | undefined;
  /** The page of a paged source. */
  page?: { section: string; index: number };
  /** The file's own version (a file source that knows one): its validators and cache key. */
  version?: string;
}

export interface GenerateContext {
  o: ResolvedHandlerOptions;
  normalize: Normalizer;
  /** Public name of the file (for the HTML view's title and links). */
  publicName: string;
}

function newer(h: Handle, e: SitemapEntry): void {
  if (e.lastmod === undefined) return;
  const ms = Date.parse(e.lastmod);
  if (ms > h.lastmodMs) {
    h.lastmodMs = ms;
    h.lastmod = e.lastmod;
  }
}

/**
 * One pass over `list`. `target` names the file whose text is wanted (engine name without
 * extension), or `'*'` for the single file of a page; without a target the pass only counts the
 * files (the layout). Yields text chunks; returns the children.
 */
export async function* pass(
  list: EntryList,
  target: string | undefined,
  format: Format,
  ctx: GenerateContext,
  dedupe: boolean,
): AsyncGenerator<string, Child[], undefined> {
  const { o, normalize } = ctx;
  const single = target === '*';
  let parts: string[] = [];
  let size = 0;
  let last: Handle | undefined;
  let opened = 0;
  let done = false;
  const handles: Handle[] = [];
  const push = (s: string): void => {
    parts.push(s);
    size += s.length;
  };
  const engine = new SitemapEngine<Handle>(
    {
      open(file) {
        opened++;
        const name = file.name.slice(0, file.name.lastIndexOf('.'));
        if (single && opened > 1) {
          throw new Error(
            `${ctx.publicName} does not fit in one file (50 MB): lower maxUrlsPerFile so that each page fits`,
          );
        }
        const h: Handle = {
          name,
          target: single || name === target,
          lastmodMs: -Infinity,
          lastmod: undefined,
        };
        handles.push(h);
        if (h.target && format === 'html') push(htmlUrlsetHead(ctx.o, ctx.publicName));
        return h;
      },
      chunk(h, text) {
        last = h;
        if (h.target && format === 'xml') push(text);
      },
      close(h) {
        if (!h.target) return;
        done = true;
        if (format === 'html') push(htmlUrlsetFoot());
      },
    },
    { maxUrlsPerFile: o.maxUrlsPerFile, xslHref: o.xslHref },
  );
  engine.declare(o.extensions);
  const seen = dedupe ? new HashedStringSet() : undefined;
  for await (const input of each(list)) {
    const n = normalize(input, ctx.publicName);
    if (n === undefined) continue;
    const e = single ? withoutSection(n) : n;
    if (seen !== undefined && !seen.add(e.loc)) continue;
    last = undefined;
    const problem = engine.add(e);
    if (problem !== undefined || last === undefined) continue;
    const h: Handle = last;
    newer(h, e);
    if (h.target && format !== 'xml') push(format === 'txt' ? textLine(e) : htmlUrlRow(e));
    if (size >= CHUNK) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
    // The requested file is complete: stop reading (the source's iterator is returned).
    if (done) break;
  }
  if (!done) engine.finish();
  // A page that came back empty (rows deleted since count() was read) is still a whole document.
  if (single && opened === 0) {
    if (format === 'xml') push(urlsetOpen(new Set(o.extensions), o.xslHref) + URLSET_CLOSE);
    else if (format === 'html') push(htmlUrlsetHead(ctx.o, ctx.publicName) + htmlUrlsetFoot());
  }
  if (size > 0) yield parts.join('');
  return handles.map((h) => ({ name: h.name, lastmod: h.lastmod }));
}

/** Text chunks as a byte stream, read only as fast as the reader takes them. */
export function textStream(chunks: AsyncGenerator<string, unknown, undefined>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const r = await chunks.next();
        if (r.done === true) controller.close();
        else controller.enqueue(encoder.encode(r.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
