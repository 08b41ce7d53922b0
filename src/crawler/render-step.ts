/**
 * A page of a rendering crawl: the raw HTML is fetched as for any crawl (politeness, retries,
 * status, headers, the raw reading), then, for an HTML page that answered 200, rendered in the
 * browser (src/render) from that same HTML, and the rendered DOM is read by the same page reader.
 * A render that hangs or crashes is tried once more in a fresh tab; a second failure is recorded
 * on the page (it is never retried as a request). Requests the page makes go out only to the
 * crawled hosts, only where robots.txt allows them, and in the host's spacing: `--rate` and a
 * robots.txt Crawl-delay hold for them as for the pages (a shared crawl claims their send slots in
 * the database). They take no place of the host's concurrency: the page that makes them holds one.
 */

import type { HostScheduler } from '../http/scheduler.js';
import { type PageMeta, PageMetaReader, resolvePageBase } from '../page/page-meta.js';
import { Renderer, type RenderResult, type RequestPolicy } from '../render/renderer.js';
import type { RobotsGate } from '../robots/gate.js';
import type { PageResponse } from './fetch-page.js';
import { originOf } from './normalize-url.js';
import type { ResolvedCrawlOptions } from './options.js';
import { AutoRender } from './render-auto.js';
import type { SlotSource } from './scheduler.js';
import type { Scope } from './scope.js';

type Fetch = (url: string, conditional?: Readonly<Record<string, string>>) => Promise<PageResponse>;

/** The links of a page, absolute and without fragments. */
function linkSet(url: string, meta: PageMeta): Set<string> {
  const base = resolvePageBase(url, meta.baseHref);
  const out = new Set<string>();
  for (const l of meta.links) {
    try {
      const u = new URL(l.href, base);
      u.hash = '';
      out.add(u.href);
    } catch {
      // Not a URL: the crawl's own normalisation drops it too.
    }
  }
  return out;
}

/** Whether the rendered page says anything the raw one does not (a link, robots, canonical). */
function gained(url: string, raw: PageMeta, rendered: PageMeta): boolean {
  const before = linkSet(url, raw);
  for (const l of linkSet(url, rendered)) if (!before.has(l)) return true;
  if (raw.canonical !== rendered.canonical) return true;
  return raw.robots.join(',') !== rendered.robots.join(',');
}

/** The page reader over the rendered DOM, with the client-side navigations as links. */
function readRendered(html: string, navigations: readonly string[]): PageMeta {
  const reader = new PageMetaReader({ fingerprint: false });
  reader.write(html);
  const meta = reader.end();
  for (const href of navigations) meta.links.push({ href, nofollow: false });
  return meta;
}

export class RenderStep {
  readonly #fetch: Fetch;
  readonly #auto: AutoRender | undefined;
  readonly #now: () => number;
  readonly renderer: Renderer;

  constructor(
    o: ResolvedCrawlOptions,
    fetch: Fetch,
    gate: RobotsGate,
    scope: Scope,
    hosts: HostScheduler,
    slots?: SlotSource,
  ) {
    this.#fetch = fetch;
    const pace =
      slots?.pace?.bind(slots) ??
      (async (origin: string): Promise<void> => {
        for (;;) {
          const now = o.now();
          const at = hosts.book(origin, now);
          if (at <= now) return;
          await o.sleep(at - now);
          // Woken late (a loaded machine), it would send into the next request's gap: book again.
          if (o.now() - at <= hosts.limits(origin).delayMs / 2) return;
        }
      });
    this.#now = o.now;
    this.#auto = o.render.mode === 'auto' ? new AutoRender() : undefined;
    const policy = async (url: string): Promise<RequestPolicy> => {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return 'third-party';
      }
      if (u.protocol === 'data:' || u.protocol === 'blob:') return 'allow';
      if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !scope.onSite(u)) return 'third-party';
      // The crawl's own robots cache: the page's API calls obey the rules its links obey.
      const origin = originOf(u.href);
      const verdict = await gate.check(origin, url);
      if (!verdict.allowed) return 'robots';
      await pace(origin);
      return 'allow';
    };
    this.renderer = new Renderer({
      executablePath: o.render.chromium,
      concurrency: o.render.concurrency,
      idleMs: o.render.idleMs,
      timeoutMs: o.render.timeoutMs,
      userAgent: o.userAgent,
      args: o.render.args,
      requestPolicy: policy,
      signal: o.signal,
    });
  }

  /** Fetches the page and, when it is HTML worth rendering, renders it. */
  async page(url: string, conditional?: Readonly<Record<string, string>>): Promise<PageResponse> {
    const res = await this.#fetch(url, conditional);
    if (!res.ok || res.text === undefined) return res;
    const { text, ...answered } = res;
    if (res.meta === undefined || res.status !== 200) return answered;
    if (this.#auto !== undefined && !this.#auto.wants(url, text)) return answered;
    const t0 = this.#now();
    let r: RenderResult = await this.renderer.render({ url, html: text });
    // A hang or a crash may be the tab's, not the page's: once more in a fresh one.
    if (!r.ok) r = await this.renderer.render({ url, html: text });
    const ms = this.#now() - t0;
    if (!r.ok) return { ...answered, render: { ok: false, error: r.error, ms } };
    const meta = readRendered(r.html, r.navigations);
    this.#auto?.learn(url, gained(url, res.meta, meta));
    return { ...answered, meta, render: { ok: true, rawMeta: res.meta, capped: r.capped, ms } };
  }

  close(): Promise<void> {
    return this.renderer.close();
  }
}
