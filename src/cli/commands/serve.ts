import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { fsError } from '../../core/fs-errors.js';
import { createNodeSitemapHandler, storeSource, toNodeListener } from '../../handler/node.js';
import { openStore } from '../../store/store.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../exit.js';
import { newsWindowOption } from '../extras-flags.js';
import { durationFlag, wholeNumberArg } from '../flags.js';
import { writeOut } from '../io.js';
import { serveFolder } from '../serve-folder.js';
import { requireStore } from '../store-build.js';

interface ServeFlags {
  port: number;
  host: string;
  maxAge: number;
  store?: string;
  newsWindow?: string;
  json?: boolean;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A built folder, each file as it is on disk. */
async function folderListener(dir: string, cacheControl: string): Promise<Listener> {
  let isDir = false;
  try {
    isDir = (await stat(dir)).isDirectory();
  } catch (cause) {
    throw fsError(cause, {
      path: dir,
      doing: 'serve the folder',
      hint: 'give the folder generate wrote',
    });
  }
  if (!isDir) throw new UsageError(`${dir} is a file, not a folder: give the folder generate wrote`);
  return (req, res) => {
    serveFolder(req, res, { root: dir, cacheControl }).catch(() => {
      // A client that went away mid-file, or a file removed under us: end this response only.
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  };
}

/**
 * A site store opened read-only, through the handler (`storeSource`): what the store holds at
 * each request, under the names a store build publishes, while cron jobs and CMS hooks keep
 * writing it. Returns the listener, the store's close, and its entry point as it is now (a text
 * store of one file publishes `sitemap.txt`, and no `sitemap.xml`).
 */
async function storeListener(
  path: string,
  flags: ServeFlags,
): Promise<{ listener: Listener; close: () => Promise<void>; entry: string }> {
  const raw = flags.newsWindow?.trim();
  const newsWindow =
    raw === undefined ? undefined : raw === 'off' ? false : durationFlag('--news-window', raw, 's')!;
  await requireStore(path, 'build one first (sitemapkit generate INPUT --store FILE --out DIR)');
  const store = await openStore(path, { readOnly: true });
  try {
    const handler = createNodeSitemapHandler({
      ...storeSource(store, newsWindow === undefined ? {} : { newsWindow }),
      maxAge: flags.maxAge,
    });
    const listener = toNodeListener(handler);
    const one = store.settings.format === 'txt' && (await store.files()).files.length === 1;
    return {
      listener: (req, res) => listener(req, res),
      close: () => store.close(),
      entry: one ? 'sitemap.txt' : 'sitemap.xml',
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

export function registerServe(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description(
      'Serve a built sitemap folder over HTTP to preview it, or a site store as it is now (--store): ETag/304, gzip and Brotli, and NAME.html, a readable view of every NAME.xml (no XSLT needed). Ctrl-C stops it.',
    )
    .argument('[dir]', 'the folder generate wrote (its sitemap.xml is served at /sitemap.xml)')
    .option(
      '--store <file|url>',
      'serve this site store instead of a folder (an SQLite file or a postgres:// URL), opened read-only: the files a build of it would publish, as the store holds them at each request',
    )
    .option('--port <n>', 'port to listen on (0: any free port)', wholeNumberArg('--port', 0, 65_535), 8080)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--max-age <seconds>', 'Cache-Control max-age (0: no-cache)', wholeNumberArg('--max-age', 0), 0)
    .addOption(newsWindowOption())
    .option('--json', 'print the address as one JSON line')
    .action(async (dir: string | undefined, flags: ServeFlags) => {
      if (dir !== undefined && flags.store !== undefined)
        throw new UsageError(`give a folder or --store, not both (${dir} and --store ${flags.store})`);
      if (dir === undefined && flags.store === undefined)
        throw new UsageError('give the folder generate wrote, or a site store with --store FILE');
      if (flags.store === undefined && flags.newsWindow !== undefined)
        throw new UsageError('--news-window applies to --store: a folder is served as it was built');
      const cacheControl = flags.maxAge === 0 ? 'no-cache' : `public, max-age=${flags.maxAge}`;
      const served =
        flags.store === undefined
          ? {
              listener: await folderListener(dir!, cacheControl),
              close: async () => undefined,
              entry: 'sitemap.xml',
            }
          : await storeListener(flags.store, flags);
      const server = createServer(served.listener);
      try {
        const what = flags.store === undefined ? dir! : `the site store ${flags.store}`;
        await serve(server, flags, what, served.entry, ctx);
      } finally {
        await served.close();
      }
    });
}

async function serve(
  server: ReturnType<typeof createServer>,
  flags: ServeFlags,
  what: string,
  entry: string,
  ctx: CliContext,
): Promise<void> {
  server.listen(flags.port, flags.host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e))]);
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new UsageError(
      code === 'EADDRINUSE'
        ? `port ${flags.port} is in use: pick another with --port (0 takes any free one)`
        : `cannot listen on ${flags.host}:${flags.port} (${code ?? String(e)})`,
    );
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${flags.host.includes(':') ? `[${flags.host}]` : flags.host}:${port}/`;
  await writeOut(
    ctx.stdout,
    flags.json === true
      ? `${JSON.stringify({ url, sitemap: `${url}${entry}`, view: `${url}sitemap.html` })}\n`
      : `serving ${what} at ${url}${entry} (readable view: ${url}sitemap.html); Ctrl-C stops\n`,
  );
  if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
  server.close();
  server.closeAllConnections();
  await once(server, 'close');
}
