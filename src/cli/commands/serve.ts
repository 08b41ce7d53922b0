import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { fsError } from '../../core/fs-errors.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../exit.js';
import { wholeNumberArg } from '../flags.js';
import { writeOut } from '../io.js';
import { serveFolder } from '../serve-folder.js';

interface ServeFlags {
  port: number;
  host: string;
  maxAge: number;
  json?: boolean;
}

export function registerServe(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description(
      'Serve a built sitemap folder over HTTP to preview it: ETag/304, gzip and Brotli, and NAME.html, a readable view of every NAME.xml (no XSLT needed). Ctrl-C stops it.',
    )
    .argument('<dir>', 'the folder generate wrote (its sitemap.xml is served at /sitemap.xml)')
    .option('--port <n>', 'port to listen on (0: any free port)', wholeNumberArg('--port', 0, 65_535), 8080)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--max-age <seconds>', 'Cache-Control max-age (0: no-cache)', wholeNumberArg('--max-age', 0), 0)
    .option('--json', 'print the address as one JSON line')
    .action(async (dir: string, flags: ServeFlags) => {
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
      const cacheControl = flags.maxAge === 0 ? 'no-cache' : `public, max-age=${flags.maxAge}`;
      const server = createServer((req, res) => {
        serveFolder(req, res, { root: dir, cacheControl }).catch(() => {
          // A client that went away mid-file, or a file removed under us: end this response only.
          if (!res.headersSent) res.writeHead(500).end();
          else res.destroy();
        });
      });
      server.listen(flags.port, flags.host);
      try {
        await Promise.race([
          once(server, 'listening'),
          once(server, 'error').then(([e]) => Promise.reject(e)),
        ]);
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
          ? `${JSON.stringify({ url, sitemap: `${url}sitemap.xml`, view: `${url}sitemap.html` })}\n`
          : `serving ${dir} at ${url}sitemap.xml (readable view: ${url}sitemap.html); Ctrl-C stops\n`,
      );
      if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
      server.close();
      server.closeAllConnections();
      await once(server, 'close');
    });
}
