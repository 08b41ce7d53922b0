/**
 * The flags of a crawl that renders pages in headless Chromium (docs/crawl.md, "Sites built with
 * JavaScript"), and the crawl options they set.
 */
import type { Command } from 'commander';
import type { RenderCrawlOptions } from '../crawler/render-options.js';
import { UsageError } from './exit.js';
import { durationArg, wholeNumberArg } from './flags.js';

export interface RenderFlags {
  render?: true | string;
  renderConcurrency?: number;
  renderTimeout?: number;
  chromium?: string;
}

/** `--render`'s optional value: only `auto` (a URL after the flag is the likely mistake). */
function renderMode(raw: string): string {
  if (raw === 'auto') return raw;
  throw new UsageError(
    `--render takes "auto" or nothing, not "${raw}" (give the start URL before --render: sitemapkit crawl URL --render)`,
  );
}

/** Adds the rendering flags to `cmd`. */
export function renderFlags(cmd: Command): Command {
  return cmd
    .option(
      '--render [auto]',
      'render pages in headless Chromium and read the rendered DOM; "--render auto" renders only pages that look like an application shell, plus a sample of each URL template',
      renderMode,
    )
    .option(
      '--render-concurrency <n>',
      'pages rendered at once (default 2)',
      wholeNumberArg('--render-concurrency', 1, 64),
    )
    .option(
      '--render-timeout <duration>',
      'a rendered page is read as it is after this long; one that cannot be read then is tried once more, then recorded as failed (default 15s)',
      durationArg('--render-timeout', 'ms', 100),
    )
    .option('--chromium <path>', 'the Chromium executable for --render (default /usr/bin/chromium)');
}

/** The crawl options of those flags. */
export function renderOptions(flags: RenderFlags): RenderCrawlOptions {
  const o: RenderCrawlOptions = {};
  const r = flags.render;
  if (r === true) o.render = true;
  else if (r === 'auto') o.render = 'auto';
  else if (r !== undefined) {
    throw new UsageError(
      `--render takes "auto" or nothing, not "${r}" (give the start URL before --render: sitemapkit crawl URL --render)`,
    );
  }
  const needs = (flag: string): never => {
    throw new UsageError(`${flag} needs --render (or --render auto)`);
  };
  if (flags.renderConcurrency !== undefined) {
    if (o.render === undefined) needs('--render-concurrency');
    o.renderConcurrency = flags.renderConcurrency;
  }
  if (flags.renderTimeout !== undefined) {
    if (o.render === undefined) needs('--render-timeout');
    o.renderTimeoutMs = flags.renderTimeout;
  }
  if (flags.chromium !== undefined) {
    if (o.render === undefined) needs('--chromium');
    o.chromium = flags.chromium;
  }
  return o;
}
