/**
 * Rendering pages in headless Chromium (issue 14): one browser, launched on the first page that
 * needs it, and a pool of at most `concurrency` tabs, each in a context of its own, reused from
 * page to page (the site's scripts stay in the tab's HTTP cache). The caller has fetched the page already: its HTML is
 * handed to the tab as the document (no second request for it, and the page that is rendered is
 * the page whose raw HTML was read), and the page's own requests go out as a browser would make
 * them, except third-party ones, images, media and fonts (blocked) and those the caller refuses
 * (robots.txt).
 *
 * A page is done when no request has been in flight for `idleMs` after its load event (and again
 * after a scroll to the end, which lazily loaded sections wait for), or when `timeoutMs` passes:
 * then the DOM is read as it is. A page that cannot even be read then (a script in an endless loop)
 * or whose renderer crashed is a failure; its tab is thrown away and the next page gets a fresh
 * one. Nothing here retries: the caller decides (the crawler tries once more, then records it).
 *
 * playwright-core is imported only here, and only when the first page is rendered: a crawl that
 * renders nothing never loads it.
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { SitemapkitError } from '../core/errors.js';
import { INIT_SCRIPT, type PageRead, READ_SCRIPT, SCROLL_SCRIPT } from './page-script.js';

/** Where Debian's `chromium` package puts the browser. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Flags for a headless browser on a server (no GPU, no sandbox in containers, no phoning home). */
const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--mute-audio',
];

/** What happens to a request a rendered page makes. */
export type RequestPolicy = 'allow' | 'third-party' | 'robots';

export interface RendererOptions {
  /** The Chromium executable. */
  executablePath: string;
  /** Tabs rendering at once. */
  concurrency: number;
  /** Quiet network for this long after the load event: the page is done (ms). */
  idleMs: number;
  /** A page is read as it is after this long (ms); one that cannot be read then has failed. */
  timeoutMs: number;
  userAgent: string;
  /** More Chromium flags. */
  args: readonly string[];
  /** Whether a request the page makes (`url`) may go out; `page` is the rendered page's URL. */
  requestPolicy: (url: string, page: string) => RequestPolicy | Promise<RequestPolicy>;
  signal: AbortSignal | undefined;
}

/** A fetched page to render: its URL and its HTML as decoded text. */
export interface RenderInput {
  url: string;
  html: string;
}

export type RenderResult =
  | {
      ok: true;
      /** The rendered DOM, serialised. */
      html: string;
      /** The page's location at the end (a router may have rewritten it). */
      url: string;
      /** URLs the page moved to without loading a document (`history.pushState`), and scripted loads it tried. */
      navigations: string[];
      /** Requests the page made. */
      requests: number;
      /** Requests blocked (third-party, robots.txt, images, media, fonts). */
      blocked: number;
      /** The time cap passed before the network was quiet: the DOM was read as it was. */
      capped: boolean;
    }
  | { ok: false; reason: 'timeout' | 'crash' | 'error'; error: string };

/** Resource types a crawler never needs: they are blocked, whoever serves them. */
const BLOCKED_TYPES = new Set(['image', 'media', 'font']);

/** Extra time to read the DOM of a page whose time cap passed (ms, at most the cap itself). */
const READ_GRACE_MS = 2000;
/** Longest wait for a failed tab to close (ms). */
const CLOSE_WAIT_MS = 2000;

/** One tab of the pool and what it is doing. */
interface Tab {
  context: BrowserContext;
  page: Page;
  /** The page being rendered; its first main-frame navigation gets this HTML. */
  doc: RenderInput | undefined;
  docServed: boolean;
  inFlight: number;
  lastActivity: number;
  requests: number;
  blocked: number;
  navigations: string[];
  crashed: boolean;
  onCrash: (() => void) | undefined;
}

type Playwright = typeof import('playwright-core');

async function loadPlaywright(): Promise<Playwright> {
  try {
    return await import('playwright-core');
  } catch (cause) {
    throw new SitemapkitError('ERR_OPTIONS', 'rendering needs playwright-core, which cannot be loaded', {
      cause,
      hint: 'reinstall sitemapkit with its dependencies (npm ci)',
    });
  }
}

/** Throws `ERR_OPTIONS` (naming the option) when there is no Chromium at `path`. */
export function checkChromium(path: string): void {
  if (existsSync(path)) return;
  throw new SitemapkitError('ERR_OPTIONS', `rendering needs Chromium, and there is none at ${path}`, {
    where: path,
    hint: `install Debian's chromium package (apt-get install chromium) or give the browser's path with --chromium PATH (the chromium option); the default is ${DEFAULT_CHROMIUM}`,
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? text).replace(/^[a-zA-Z.]+: /, '');
}

export class Renderer {
  readonly #o: RendererOptions;
  #browser: Promise<Browser> | undefined;
  readonly #idle: Tab[] = [];
  #tabs = 0;
  readonly #waiters: Array<() => void> = [];
  #closed = false;
  /** Pages rendered (attempts, failures included). */
  renders = 0;

  constructor(o: RendererOptions) {
    this.#o = o;
  }

  /** Whether the browser has been started (a crawl that renders nothing never starts it). */
  get started(): boolean {
    return this.#browser !== undefined;
  }

  #launch(): Promise<Browser> {
    this.#browser ??= (async () => {
      checkChromium(this.#o.executablePath);
      const { chromium } = await loadPlaywright();
      let browser: Browser;
      try {
        browser = await chromium.launch({
          executablePath: this.#o.executablePath,
          args: [...CHROMIUM_ARGS, ...this.#o.args],
          // The crawl's own signal closes the browser (Ctrl-C included): Playwright must not
          // handle the signals itself and kill it under a crawl that is still saving its state.
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
        });
      } catch (cause) {
        throw new SitemapkitError(
          'ERR_OPTIONS',
          `Chromium at ${this.#o.executablePath} did not start: ${firstLine(cause)}`,
          {
            cause,
            where: this.#o.executablePath,
            hint: 'check that --chromium PATH names a working Chromium (Debian: apt-get install chromium)',
          },
        );
      }
      return browser;
    })();
    return this.#browser;
  }

  /**
   * A tab in a context of its own: its renderer process is never shared with another tab, so a
   * page that hangs or crashes its renderer takes no other page with it, and the tab that
   * replaces it starts in a new process.
   */
  async #newTab(): Promise<Tab> {
    const browser = await this.#launch();
    const context = await browser.newContext({
      userAgent: this.#o.userAgent,
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 800 },
    });
    await context.addInitScript(INIT_SCRIPT);
    const page = await context.newPage();
    const tab: Tab = {
      context,
      page,
      doc: undefined,
      docServed: false,
      inFlight: 0,
      lastActivity: Date.now(),
      requests: 0,
      blocked: 0,
      navigations: [],
      crashed: false,
      onCrash: undefined,
    };
    const active = (delta: number): void => {
      tab.inFlight = Math.max(0, tab.inFlight + delta);
      tab.lastActivity = Date.now();
    };
    page.on('request', () => active(1));
    page.on('requestfinished', () => active(-1));
    page.on('requestfailed', () => active(-1));
    page.on('crash', () => {
      tab.crashed = true;
      tab.onCrash?.();
    });
    await page.route('**/*', (route) => this.#route(tab, route));
    return tab;
  }

  async #route(tab: Tab, route: Route): Promise<void> {
    const req = route.request();
    const url = req.url();
    try {
      if (req.isNavigationRequest() && req.frame() === tab.page.mainFrame()) {
        if (tab.doc !== undefined && !tab.docServed) {
          tab.docServed = true;
          await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: tab.doc.html });
          return;
        }
        // A script that loads another document (location.href = …): a link, not this page.
        tab.navigations.push(url);
        tab.blocked++;
        await route.abort('blockedbyclient');
        return;
      }
      tab.requests++;
      const policy = BLOCKED_TYPES.has(req.resourceType())
        ? 'third-party'
        : await this.#o.requestPolicy(url, tab.doc?.url ?? url);
      if (policy !== 'allow') {
        tab.blocked++;
        await route.abort('blockedbyclient');
        return;
      }
      await route.continue();
    } catch {
      // The tab was closed or crashed meanwhile: nothing to route any more.
    }
  }

  async #acquire(): Promise<Tab> {
    for (;;) {
      if (this.#closed) throw new SitemapkitError('ERR_ABORTED', 'the renderer was closed');
      const tab = this.#idle.pop();
      if (tab !== undefined) return tab;
      if (this.#tabs < this.#o.concurrency) {
        this.#tabs++;
        try {
          return await this.#newTab();
        } catch (error) {
          this.#tabs--;
          this.#wakeOne();
          throw error;
        }
      }
      await new Promise<void>((r) => this.#waiters.push(r));
    }
  }

  #wakeOne(): void {
    this.#waiters.shift()?.();
  }

  async #release(tab: Tab, healthy: boolean): Promise<void> {
    tab.doc = undefined;
    tab.onCrash = undefined;
    if (healthy && !this.#closed) this.#idle.push(tab);
    else {
      // A tab that does not close in time (a hung renderer) is left to the browser's close.
      const closed = tab.context.close().catch(() => {});
      await Promise.race([closed, sleep(CLOSE_WAIT_MS)]);
      this.#tabs--;
    }
    this.#wakeOne();
  }

  /**
   * Renders one fetched page. Resolves with the rendered DOM, or with the failure (a hang or a
   * crash); rejects only when the browser cannot start or the signal aborts.
   */
  async render(input: RenderInput): Promise<RenderResult> {
    const signal = this.#o.signal;
    const aborted = (): boolean => signal?.aborted === true;
    if (aborted()) throw new SitemapkitError('ERR_ABORTED', 'the crawl was interrupted');
    const tab = await this.#acquire();
    // Aborted while it waited for a tab: nothing more is rendered.
    if (aborted()) {
      await this.#release(tab, true);
      throw new SitemapkitError('ERR_ABORTED', 'the crawl was interrupted');
    }
    this.renders++;
    let result: RenderResult;
    let onAbort: (() => void) | undefined;
    try {
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new SitemapkitError('ERR_ABORTED', 'the crawl was interrupted'));
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      result = await Promise.race([this.#renderOn(tab, input), aborted]);
    } catch (error) {
      await this.#release(tab, false);
      throw error;
    } finally {
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    }
    await this.#release(tab, result.ok);
    return result;
  }

  async #renderOn(tab: Tab, input: RenderInput): Promise<RenderResult> {
    const o = this.#o;
    const page = tab.page;
    tab.doc = input;
    tab.docServed = false;
    tab.requests = 0;
    tab.blocked = 0;
    tab.navigations = [];
    const deadline = Date.now() + o.timeoutMs;
    const grace = Math.min(READ_GRACE_MS, o.timeoutMs);
    let capped = false;
    const work = (async (): Promise<PageRead> => {
      try {
        await page.goto(input.url, { waitUntil: 'load', timeout: o.timeoutMs });
        capped = !(await this.#quiet(tab, deadline));
        if (!capped) {
          await page.evaluate(SCROLL_SCRIPT);
          capped = !(await this.#quiet(tab, deadline));
        }
      } catch (error) {
        if (tab.crashed) throw error;
        // The load event never came in time: the page is read as it is, if it can be read.
        capped = true;
      }
      return (await page.evaluate(READ_SCRIPT)) as PageRead;
    })();
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((r) => {
      timer = setTimeout(() => r('hung'), o.timeoutMs + grace);
    });
    const crashed = new Promise<'crash'>((r) => {
      tab.onCrash = () => r('crash');
    });
    try {
      const read = await Promise.race([work, hung, crashed]);
      if (read === 'crash') return { ok: false, reason: 'crash', error: 'the page crashed the renderer' };
      if (read === 'hung') {
        return {
          ok: false,
          reason: 'timeout',
          error: `the page did not answer within ${o.timeoutMs + grace} ms (a script that never yields?)`,
        };
      }
      const navigations = [...tab.navigations, ...read.navigations];
      return {
        ok: true,
        html: read.html,
        url: read.url,
        navigations,
        requests: tab.requests,
        blocked: tab.blocked,
        capped,
      };
    } catch (error) {
      if (tab.crashed) return { ok: false, reason: 'crash', error: 'the page crashed the renderer' };
      if (this.#closed || this.#o.signal?.aborted === true) throw error;
      return { ok: false, reason: 'error', error: firstLine(error) };
    } finally {
      clearTimeout(timer);
      work.catch(() => {});
    }
  }

  /** Waits until nothing has been in flight for `idleMs`; false when `deadline` passed first. */
  async #quiet(tab: Tab, deadline: number): Promise<boolean> {
    const idle = this.#o.idleMs;
    for (;;) {
      const now = Date.now();
      if (tab.crashed) throw new Error('the page crashed');
      if (tab.inFlight === 0 && now - tab.lastActivity >= idle) return true;
      if (now >= deadline) return false;
      const wait = tab.inFlight === 0 ? idle - (now - tab.lastActivity) : Math.min(idle, 50);
      await sleep(Math.max(5, Math.min(wait, deadline - now)));
    }
  }

  /** Closes the browser and every tab (idempotent). Pending renders fail with `ERR_ABORTED`. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const w of this.#waiters.splice(0)) w();
    const b = this.#browser;
    if (b === undefined) return;
    try {
      await (await b).close();
    } catch {
      // It never started (the error was reported where it failed), or it is gone already.
    }
  }
}
