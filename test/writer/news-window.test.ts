import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { EntryInput } from '../../src/core/entry.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';
const NOW = new Date('2026-11-26T12:00:00Z');
const DAY = 86_400_000;

function article(i: number, published: string): EntryInput {
  return {
    loc: `${BASE}news/${i}`,
    news: {
      publication: { name: 'The Times', language: 'en' },
      publication_date: published,
      title: `Story ${i}`,
    },
  };
}

/** The locs of a written urlset that still carry a news block. */
function withNews(xml: string): string[] {
  return [...xml.matchAll(/<url><loc>([^<]*)<\/loc>(.*?)<\/url>/g)]
    .filter((m) => m[2]!.includes('<news:news>'))
    .map((m) => m[1]!);
}

function allLocs(xml: string): string[] {
  return [...xml.matchAll(/<url><loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

function text(memory: Map<string, Uint8Array> | undefined, name = 'sitemap.xml'): string {
  return Buffer.from(memory!.get(name)!).toString('utf8');
}

beforeAll(() => assertXmllint());

describe('the news window', () => {
  it('drops the news block of articles older than two days, keeps their URLs, and says so once', async () => {
    const out = tempDir();
    const seen: Diagnostic[] = [];
    const r = await writeSitemaps(
      [
        article(1, '2026-11-26T11:00:00Z'),
        article(2, '2026-11-24T12:00:00Z'), // exactly two days: still inside
        article(3, '2026-11-24T11:59:59Z'),
        article(4, '2026-01-01'),
        { loc: `${BASE}plain` },
      ],
      { outDir: out, baseUrl: BASE, now: () => NOW, onDiagnostic: (d) => seen.push(d) },
    );
    const xml = readFileSync(join(out, 'sitemap.xml'), 'utf8');
    expect(allLocs(xml)).toEqual([1, 2, 3, 4].map((i) => `${BASE}news/${i}`).concat(`${BASE}plain`));
    expect(withNews(xml)).toEqual([`${BASE}news/1`, `${BASE}news/2`]);
    const window = seen.filter((d) => d.code === 'news-outside-window');
    expect(window).toHaveLength(1);
    expect(window[0]!.severity).toBe('info');
    expect(window[0]!.message).toContain('2 news entries');
    expect(window[0]!.message).toContain(`${BASE}news/3, ${BASE}news/4`);
    expect(r.counts.info).toBe(1);
    expect(xmllint(join(out, 'sitemap.xml')).ok).toBe(true);
  });

  it('takes newsWindow as a duration, and off (false, 0) keeps every block', async () => {
    const entries = [article(1, '2026-11-26T09:00:00Z'), article(2, '2026-11-20')];
    const run = async (newsWindow: number | string | false) =>
      withNews(
        text(
          (await writeSitemaps(entries, { output: 'memory', baseUrl: BASE, now: () => NOW, newsWindow }))
            .memory,
        ),
      );
    expect(await run('1h')).toEqual([]);
    expect(await run('4h')).toEqual([`${BASE}news/1`]);
    expect(await run('10d')).toEqual([`${BASE}news/1`, `${BASE}news/2`]);
    expect(await run(false)).toEqual([`${BASE}news/1`, `${BASE}news/2`]);
    expect(await run(0)).toEqual([`${BASE}news/1`, `${BASE}news/2`]);
    expect(await run('off')).toEqual([`${BASE}news/1`, `${BASE}news/2`]);
    await expect(run('two days')).rejects.toThrow(/newsWindow must be a duration/);
  });

  it('declares no news namespace when every news block fell out of the window', async () => {
    const r = await writeSitemaps([article(1, '2020-01-01'), { loc: `${BASE}x` }], {
      output: 'memory',
      baseUrl: BASE,
      now: () => NOW,
    });
    expect(text(r.memory)).not.toContain('sitemap-news');
  });

  it('keeps exactly the articles inside the window (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -10 * DAY, max: DAY }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 5 * DAY }),
        async (offsets, windowMs) => {
          // Whole seconds, as the writer's clock and W3C datetimes have them.
          const dates = offsets.map((o) => new Date(Math.floor((NOW.getTime() + o) / 1000) * 1000));
          const entries = dates.map((d, i) => article(i, d.toISOString().replace('.000Z', 'Z')));
          const r = await writeSitemaps(entries, {
            output: 'memory',
            baseUrl: BASE,
            now: () => NOW,
            newsWindow: windowMs,
          });
          const expected = dates
            .map((d, i) => ({ d, loc: `${BASE}news/${i}` }))
            .filter(({ d }) => windowMs === 0 || d.getTime() >= NOW.getTime() - windowMs)
            .map(({ loc }) => loc);
          const xml = text(r.memory);
          expect(withNews(xml)).toEqual(expected);
          expect(allLocs(xml)).toHaveLength(dates.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('still puts at most 1,000 news entries in a file for articles inside the window', async () => {
    const out = tempDir();
    const entries = Array.from({ length: 2_300 }, (_, i) =>
      article(i, i % 2 === 0 ? '2026-11-26T10:00:00Z' : '2026-11-01T10:00:00Z'),
    );
    const r = await writeSitemaps(entries, { outDir: out, baseUrl: BASE, now: () => NOW });
    const children = r.files.filter((f) => f.kind === 'urlset');
    // 1,150 fresh articles and 1,150 URLs that lost their block: the news budget rotates once.
    const news = children.map((f) => withNews(readFileSync(f.path, 'utf8')).length);
    expect(news).toEqual([1000, 150]);
    expect(children.reduce((n, f) => n + f.urls, 0)).toBe(2_300);
    for (const f of children) expect(xmllint(f.path).ok).toBe(true);
  });

  it('generate --news-window on the command line, with the clock from SOURCE_DATE_EPOCH', async () => {
    const dir = tempDir();
    const input = join(dir, 'news.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      input,
      `${[article(1, '2026-11-26T10:00:00Z'), article(2, '2026-11-23T10:00:00Z')].map((e) => JSON.stringify(e)).join('\n')}\n`,
    );
    const env = { SOURCE_DATE_EPOCH: String(NOW.getTime() / 1000) };
    const out = join(dir, 'out');
    const a = await runBin(['generate', input, '--base-url', BASE, '--out', out], { env });
    expect(a.code).toBe(0);
    expect(a.stderr).toContain('news-outside-window');
    expect(withNews(readFileSync(join(out, 'sitemap.xml'), 'utf8'))).toEqual([`${BASE}news/1`]);
    const b = await runBin(['generate', input, '--base-url', BASE, '--out', out, '--news-window', '4d'], {
      env,
    });
    expect(b.code).toBe(0);
    expect(withNews(readFileSync(join(out, 'sitemap.xml'), 'utf8'))).toHaveLength(2);
    const c = await runBin(['generate', input, '--base-url', BASE, '--out', out, '--news-window', 'soon'], {
      env,
    });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--news-window must be a duration');
  });
});
