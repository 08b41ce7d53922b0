/**
 * The crawl command's lines for people: the progress line (terminal) and log line (pipes, CI), a
 * finding named by its page, and the command that resumes an interrupted crawl. Pure, for tests.
 */
import { type Diagnostic, formatDiagnostic } from '../core/diagnostics.js';
import type { CrawlProgress } from '../crawler/options.js';
import type { ChangeCounts } from '../crawler/records.js';
import type { BuildResult } from '../store/store.js';
import { formatEta, type RateEstimate } from './progress.js';

/**
 * The progress of a crawl: pages done, queued now, in the sitemap, errors, the rate over the last
 * seconds and the ETA at that rate, as a terminal line (`tty`) or a log line of `key=value` fields.
 * An estimated queue (a shared crawl's, beyond its counted bound) reads `~N` in both.
 */
export function progressText(
  p: CrawlProgress,
  est: RateEstimate,
  form: 'tty' | 'log',
  queueEstimated = false,
): string {
  const n = (v: number): string => v.toLocaleString('en-US');
  const about = queueEstimated ? '~' : '';
  if (form === 'log') {
    const eta = est.etaSeconds === undefined ? '?' : `${Math.round(est.etaSeconds)}s`;
    return `crawl progress done=${p.done} queued=${about}${p.queued} listed=${p.listed} errors=${p.errors} requests=${p.requests} rate=${est.rate.toFixed(1)}/s eta=${eta}`;
  }
  return `${n(p.done)} done · ${about}${n(p.queued)} queued · ${n(p.listed)} listed · ${n(p.errors)} errors · ${est.rate.toFixed(est.rate < 10 ? 1 : 0)}/s · ETA ${formatEta(est.etaSeconds)}`;
}

/**
 * The command that continues an interrupted crawl: the one given, with --resume instead of
 * --fresh (a recrawl continues by itself: the same command).
 */
export function resumeCommand(argv: readonly string[]): string {
  const recrawl = argv.includes('--recrawl');
  const args = argv.filter((a) => a !== '--fresh' && a !== '--resume');
  // stderr ends up in CI logs: header values and URL passwords are shown as <hidden>, to be
  // given again, rather than printed.
  const shown = args.map((a, i) => {
    if (args[i - 1] === '--header') return hideHeaderValue(a);
    if (a.startsWith('--header=')) return `--header=${hideHeaderValue(a.slice(9))}`;
    return hidePassword(a);
  });
  return ['sitemapkit', ...shown, ...(recrawl ? [] : ['--resume'])].map(shellWord).join(' ');
}

function hideHeaderValue(h: string): string {
  const colon = h.indexOf(':');
  return colon === -1 ? h : `${h.slice(0, colon)}: <hidden>`;
}

// http(s) for start URLs, postgres(ql) for --store: a password in either never reaches a log.
const WITH_PASSWORD = /^((?:--[\w-]+=)?(?:https?|postgres(?:ql)?):\/\/[^/:@]*:)[^/@]*@/i;

function hidePassword(arg: string): string {
  if (!WITH_PASSWORD.test(arg)) return arg;
  return arg.replace(WITH_PASSWORD, '$1<hidden>@');
}

function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** A diagnostic line that names the page it is about (the crawl's findings are about pages). */
export function diagnosticLine(d: Diagnostic): string {
  const line = formatDiagnostic(d);
  return d.url === undefined || line.includes(d.url) ? line : `${d.url}: ${line}`;
}

/** What a recrawl observed, for the summary. */
export function changesLine(c: ChangeCounts): string {
  const n = (v: number): string => v.toLocaleString('en-US');
  const kept = c.kept > 0 ? `, ${n(c.kept)} failed and kept as they were` : '';
  return `  since the last crawl: ${n(c.unchanged)} unchanged (${n(c.notModified)} answered 304), ${n(c.changed)} changed, ${n(c.added)} new, ${n(c.removed)} gone${kept}`;
}

/** The lines of a crawl published through the store: where, and what moved (URLs, then files). */
export function storeLines(r: BuildResult, store: string, out: string): string[] {
  const n = (v: number): string => v.toLocaleString('en-US');
  const by = (c: string): number => r.files.filter((f) => f.change === c).length;
  const files = r.files.length;
  return [
    `  sitemaps: ${out} (${r.entry}) through the store ${store}: ${n(r.urls)} URL${r.urls === 1 ? '' : 's'} in ${n(files)} file${files === 1 ? '' : 's'}`,
    `  published: URLs ${n(r.added)} added, ${n(r.changed)} changed, ${n(r.removed)} removed; files ${by('added')} added, ${by('rewritten')} rewritten, ${by('kept')} kept, ${r.deleted.length} deleted`,
  ];
}
