/**
 * The crawl's rendering options (docs/crawl.md, "Sites built with JavaScript"): part of the one
 * options bag of {@link crawl}, resolved here once with the shared checks.
 */
import { duration, wholeNumber } from '../core/checks.js';
import { SitemapkitError } from '../core/errors.js';
import { checkChromium, DEFAULT_CHROMIUM } from '../render/renderer.js';

/** Options of a crawl that renders pages in headless Chromium. */
export interface RenderCrawlOptions {
  /**
   * Render pages in headless Chromium and read links, canonical, meta robots, hreflang, title and
   * images from the rendered DOM. `true` renders every HTML page; `'auto'` renders only pages whose
   * raw HTML looks like an application shell, plus a sample of each URL template (kept on only
   * where rendering found more links). @default false
   */
  render?: boolean | 'auto';
  /** Pages rendered at once (browser tabs). @default 2 */
  renderConcurrency?: number;
  /** The Chromium executable. @default '/usr/bin/chromium' */
  chromium?: string;
  /**
   * A rendered page is read as it is after this long (ms); one that cannot be read then (a script
   * that never yields) is tried once more in a fresh tab, then recorded as failed. @default 15000
   */
  renderTimeoutMs?: number;
  /** A rendered page is done when the network has been quiet this long after its load event (ms). @default 250 */
  renderIdleMs?: number;
  /** More Chromium command-line flags (a proxy, a smaller script heap). @default [] */
  chromiumArgs?: readonly string[];
}

export interface ResolvedRender {
  mode: false | true | 'auto';
  concurrency: number;
  chromium: string;
  timeoutMs: number;
  idleMs: number;
  args: string[];
}

/** Checks the rendering options; with rendering on, that Chromium is there (before any request). */
export function resolveRender(o: RenderCrawlOptions): ResolvedRender {
  const mode = o.render ?? false;
  if (mode !== true && mode !== false && mode !== 'auto') {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `render must be true, false or "auto", not ${JSON.stringify(mode)}`,
    );
  }
  const chromium = o.chromium ?? DEFAULT_CHROMIUM;
  if (typeof chromium !== 'string' || chromium === '') {
    throw new SitemapkitError('ERR_OPTIONS', 'chromium must be the path of the Chromium executable');
  }
  const args = [...(o.chromiumArgs ?? [])];
  if (args.some((a) => typeof a !== 'string' || !a.startsWith('--'))) {
    throw new SitemapkitError('ERR_OPTIONS', 'chromiumArgs must be Chromium flags, each starting with --');
  }
  const r: ResolvedRender = {
    mode,
    concurrency: wholeNumber('renderConcurrency', o.renderConcurrency, 2, { min: 1, max: 64 }),
    chromium,
    timeoutMs: duration('renderTimeoutMs', o.renderTimeoutMs, 15_000, { unit: 'ms', minMs: 100 }),
    idleMs: duration('renderIdleMs', o.renderIdleMs, 250, { unit: 'ms', minMs: 0, maxMs: 60_000 }),
    args,
  };
  if (mode !== false) checkChromium(chromium);
  return r;
}
