// The rendering bench's peer: crawlee's PlaywrightCrawler over the same Chromium
// (/usr/bin/chromium through playwright), collecting the same links: every page of the start
// origin, each read once its network is idle (Playwright's `networkidle`, the documented wait for
// content a page fetches after load), images, fonts and media blocked (crawlee's own
// `blockRequests`), the same concurrency. Prints the pages crawled as JSON.
// Usage: node bench/peers/render-crawlee.mjs START_URL CONCURRENCY
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Configuration, LogLevel, log, PlaywrightCrawler, playwrightUtils } from '@crawlee/playwright';
import { chromium } from 'playwright';

const [start, concurrency = '2'] = process.argv.slice(2);
const storage = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
process.env.CRAWLEE_STORAGE_DIR = storage;
log.setLevel(LogLevel.ERROR);
const pages = new Set();
const c = Number(concurrency);
const crawler = new PlaywrightCrawler(
  {
    launchContext: {
      launcher: chromium,
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
      },
    },
    minConcurrency: c,
    maxConcurrency: c,
    maxRequestRetries: 1,
    requestHandlerTimeoutSecs: 30,
    preNavigationHooks: [
      async ({ page }) => {
        await playwrightUtils.blockRequests(page);
      },
    ],
    async requestHandler({ page, request, enqueueLinks }) {
      await page.waitForLoadState('networkidle');
      pages.add(request.loadedUrl ?? request.url);
      await enqueueLinks({ strategy: 'same-origin' });
    },
  },
  new Configuration({ persistStorage: false, storageClientOptions: { localDataDirectory: storage } }),
);
try {
  await crawler.run([start]);
} finally {
  rmSync(storage, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ pages: pages.size })}\n`);
