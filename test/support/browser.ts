/**
 * Debian's Chromium (/usr/bin/chromium) driven by playwright-core, for tests that look at pages
 * the way a person would. Every page records console errors, uncaught page errors and any request
 * that tried to leave loopback (those are blocked: pages must work without a network).
 * Shared by the HTML site map / XSL tests and the validator's HTML report test: keep it generic.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

// The machine's network is closed: without the background-networking flags Chromium keeps trying
// to reach Google's hosts and logs refused connections.
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What a page did that a test may want to forbid. */
export interface PageLog {
  /** `console.error` messages and failed resource loads, with the URL they came from. */
  consoleErrors: string[];
  /** `console.warn` messages (Chromium reports deprecations such as XSLT's here). */
  consoleWarnings: string[];
  /** Uncaught exceptions in page scripts. */
  pageErrors: string[];
  /** Requests to anything but 127.0.0.1/localhost, data: or blob: (they were aborted). */
  externalRequests: string[];
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  log: PageLog;
  /** consoleErrors + pageErrors + externalRequests, for `expect(problems()).toEqual([])`. */
  problems(): string[];
}

export interface ChromiumSession {
  browser: Browser;
  /** A page in its own fresh context (no cookies, storage or cache shared with other pages). */
  newPage(options?: { width?: number; height?: number }): Promise<WatchedPage>;
  close(): Promise<void>;
}

function isLoopback(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return true;
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

// Chromium asks every origin for /favicon.ico on its own; a 404 for it says nothing about the page.
function isFaviconNoise(text: string, url: string): boolean {
  return text.startsWith('Failed to load resource') && new URL(url, 'http://x/').pathname === '/favicon.ico';
}

/**
 * Starts Chromium headless. `chromium.launch` gives the browser a new temporary user-data-dir of
 * its own (and deletes it on close), so no profile state leaks between runs.
 */
export async function launchChromium(): Promise<ChromiumSession> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  return {
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
      });
      const log: PageLog = { consoleErrors: [], consoleWarnings: [], pageErrors: [], externalRequests: [] };
      await context.route('**/*', async (route) => {
        const url = route.request().url();
        if (isLoopback(url)) return route.continue();
        log.externalRequests.push(url);
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        const where = message.location().url;
        const text = `${message.text()} (${where})`;
        if (message.type() === 'error' && !isFaviconNoise(message.text(), where))
          log.consoleErrors.push(text);
        else if (message.type() === 'warning') log.consoleWarnings.push(text);
      });
      page.on('pageerror', (error) => log.pageErrors.push(String(error.stack ?? error)));
      return {
        page,
        context,
        log,
        problems: () => [
          ...log.consoleErrors,
          ...log.pageErrors,
          ...log.externalRequests.map((u) => `external: ${u}`),
        ],
      };
    },
    close: () => browser.close(),
  };
}

/** test/.artifacts/: screenshots and other things kept for people to look at (never committed). */
export const ARTIFACTS_DIR: string = fileURLToPath(new URL('../.artifacts/', import.meta.url));

/** Saves a full-page screenshot as test/.artifacts/NAME.png and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  // Ignores itself and everything beside it, so the folder stays out of git without touching .gitignore.
  await writeFile(`${ARTIFACTS_DIR}.gitignore`, '*\n');
  const path = `${ARTIFACTS_DIR}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}
