import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { type AccessLogOptions, type LogFileSummary, readAccessLogs } from '../../src/sources/access-log.js';
import { compileLogFormat, logTime, unescapeLogValue } from '../../src/sources/log-format.js';
import { all, failure } from './helpers.js';

const SITE = 'https://example.com/';
const FIXTURES = new URL('../fixtures/logs/', import.meta.url);
const fixture = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

/** A log given as bytes, split into the chunks given (default: one). */
function log(name: string, bytes: Uint8Array | string, chunk = Number.POSITIVE_INFINITY) {
  const b = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes);
  return {
    name,
    bytes: (async function* () {
      for (let i = 0; i < b.length; i += chunk) yield b.subarray(i, Math.min(b.length, i + chunk));
    })(),
  };
}

async function records(
  inputs: Parameters<typeof readAccessLogs>[0],
  options: Partial<AccessLogOptions> = {},
): Promise<Array<Record<string, unknown>>> {
  // JSON drops the records' origin (a symbol), which the writer reads, not the user.
  return JSON.parse(JSON.stringify(await all(readAccessLogs(inputs, { site: SITE, ...options }))));
}

const locs = async (...args: Parameters<typeof records>): Promise<string[]> =>
  (await records(...args)).map((r) => r['loc'] as string);

describe('readAccessLogs: real nginx and Apache lines', () => {
  it('nginx combined: pages answered 200/304 to GET, once each; assets, robots.txt, sitemaps, POST, HEAD, 404 and 400 left out', async () => {
    const found = await locs([log('nginx.log', fixture('nginx-combined.log'))]);
    expect(found).toEqual([
      'https://example.com/',
      // IPv6 client, tracking parameters removed, the others kept in order
      'https://example.com/products/shoes?color=red',
      // percent-encoding kept as logged; a 304 is a page that exists
      'https://example.com/blog/caf%C3%A9-cr%C3%A8me',
      // a ;jsessionid path parameter removed
      'https://example.com/cart',
      // a session parameter removed; escaped quotes in the user agent do not end the field
      'https://example.com/search?q=red+shoes',
      // nginx's \xHH escapes of raw bytes read as UTF-8
      'https://example.com/stra%C3%9Fe',
    ]);
  });

  it('Apache common with "-" sizes and IPv6, and Apache combined with \\" and \\\\ in the agent', async () => {
    expect(await locs([log('common.log', fixture('apache-common.log'))])).toEqual([
      'https://example.com/index.html',
      'https://example.com/docs/guide.html',
      'https://example.com/about/',
    ]);
    expect(await locs([log('combined.log', fixture('apache-combined.log'))], { format: 'combined' })).toEqual(
      ['https://example.com/cgi-bin/try/', 'https://example.com/'],
    );
  });

  it('a PDF is left out by default and kept with includeExtensions; excludeExtensions adds to the list', async () => {
    const common = fixture('apache-common.log');
    expect(await locs([log('a.log', common)], { includeExtensions: ['.PDF'] })).toContain(
      'https://example.com/docs/Annual%20Report.pdf',
    );
    expect(await locs([log('a.log', common)], { excludeExtensions: ['html'] })).toEqual([
      'https://example.com/about/',
    ]);
  });

  it('a URL seen in several logs, plain and gzip-rotated, is one record; gzip is sniffed, not read from the name', async () => {
    const text = fixture('nginx-combined.log');
    const diagnostics: Diagnostic[] = [];
    const gz = [log('access.log', text), log('access.log.1', gzipSync(text)), log('access.log.2.gz', text)];
    const files: Array<[string, boolean, number]> = [];
    const found = await locs(gz, {
      onDiagnostic: (d) => diagnostics.push(d),
      onFile: (s) => files.push([s.file, s.gzip, s.urls]),
    });
    expect(found).toHaveLength(6);
    expect(files).toEqual([
      ['access.log', false, 6],
      ['access.log.1', true, 0],
      ['access.log.2.gz', false, 0],
    ]);
    expect(diagnostics).toEqual([]);
  });

  it('two gzip members one after the other read as one log', async () => {
    const a = 'h - - [26/Nov/2026:08:12:01 +0000] "GET /a HTTP/1.1" 200 1\n';
    const b = 'h - - [26/Nov/2026:08:12:02 +0000] "GET /b HTTP/1.1" 200 1\n';
    expect(await locs(log('x.gz', Buffer.concat([gzipSync(a), gzipSync(b)])))).toEqual([
      'https://example.com/a',
      'https://example.com/b',
    ]);
  });

  it('a broken gzip fails naming the log', async () => {
    const cut = gzipSync(fixture('nginx-combined.log')).subarray(0, 200);
    const e = await failure(all(readAccessLogs([log('access.log.3.gz', cut)], { site: SITE })));
    expect(e.code).toBe('ERR_INPUT');
    expect(e.where).toBe('access.log.3.gz');
    expect(e.message).toContain('the gzip data is broken');
  });
});

describe('readAccessLogs: the site, hosts and lastmod', () => {
  it('--site with a path keeps only the URLs under it; an absolute-form target on another host is left out', async () => {
    const lines = [
      'h - - [26/Nov/2026:08:12:01 +0000] "GET /shop/a HTTP/1.1" 200 1',
      'h - - [26/Nov/2026:08:12:01 +0000] "GET /blog/b HTTP/1.1" 200 1',
      'h - - [26/Nov/2026:08:12:01 +0000] "GET https://example.com/shop/c HTTP/1.1" 200 1',
      'h - - [26/Nov/2026:08:12:01 +0000] "GET http://evil.example/shop/d HTTP/1.1" 200 1',
    ].join('\n');
    expect(await locs(log('a.log', lines), { site: 'https://example.com/shop/' })).toEqual([
      'https://example.com/shop/a',
      'https://example.com/shop/c',
    ]);
  });

  it('a custom Apache format with %v: lines of another virtual host are left out, the site host with a port kept', async () => {
    const format = '%v:%p %h %l %u %t \\"%r\\" %>s %O';
    const lines = [
      'example.com:443 1.2.3.4 - - [26/Nov/2026:08:12:01 +0000] "GET /a HTTP/1.1" 200 10',
      'other.example:443 1.2.3.4 - - [26/Nov/2026:08:12:01 +0000] "GET /b HTTP/1.1" 200 10',
      'EXAMPLE.COM:80 1.2.3.4 - - [26/Nov/2026:08:12:01 +0000] "GET /c HTTP/1.1" 200 10',
    ].join('\n');
    expect(await locs(log('vhosts.log', lines), { format })).toEqual([
      'https://example.com/a',
      'https://example.com/c',
    ]);
  });

  it('an nginx log_format pasted from nginx.conf, with $time_iso8601 and the Last-Modified header as lastmod', async () => {
    const format = `log_format sitemap '$host $remote_addr [$time_iso8601] "$request" '
                       '$status $body_bytes_sent "$sent_http_last_modified" "$http_user_agent"';`;
    const lines = [
      'example.com 1.2.3.4 [2026-11-26T08:12:01+00:00] "GET /a HTTP/1.1" 200 10 "Tue, 03 Nov 2026 10:00:00 GMT" "UA"',
      'example.com 1.2.3.4 [2026-11-26T09:12:01+00:00] "GET /a HTTP/1.1" 304 0 "Wed, 04 Nov 2026 10:00:00 GMT" "UA"',
      'example.com 1.2.3.4 [2026-11-26T10:12:01+00:00] "GET /a HTTP/1.1" 200 10 "Mon, 02 Nov 2026 10:00:00 GMT" "UA"',
      'example.com 1.2.3.4 [2026-11-26T10:12:02+00:00] "GET /b HTTP/1.1" 200 10 "-" "UA"',
    ].join('\n');
    expect(await records(log('n.log', lines), { format, lastmod: 'last-modified' })).toEqual([
      { loc: 'https://example.com/a', lastmod: '2026-11-04T10:00:00Z' },
      { loc: 'https://example.com/b' },
    ]);
    // last-hit: when the page was last served (with the time zone of the log applied)
    expect(await records(log('n.log', lines), { format, lastmod: 'last-hit' })).toEqual([
      { loc: 'https://example.com/a', lastmod: '2026-11-26T10:12:01Z' },
      { loc: 'https://example.com/b', lastmod: '2026-11-26T10:12:02Z' },
    ]);
    // no lastmod unless asked
    expect((await records(log('n.log', lines), { format }))[0]).toEqual({ loc: 'https://example.com/a' });
  });

  it('last-hit over a common log reads the offset of each line', async () => {
    const lines = [
      'h - - [26/Nov/2026:08:00:00 +0100] "GET /a HTTP/1.1" 200 1',
      'h - - [26/Nov/2026:06:30:00 -0100] "GET /a HTTP/1.1" 200 1',
    ].join('\n');
    expect(await records(log('a.log', lines), { lastmod: 'last-hit' })).toEqual([
      { loc: 'https://example.com/a', lastmod: '2026-11-26T07:30:00Z' },
    ]);
  });

  it('lastmod last-modified needs a format that logs the header', async () => {
    const e = await failure(
      (async () => readAccessLogs('x.log', { site: SITE, lastmod: 'last-modified' }))(),
    );
    expect(e.code).toBe('ERR_OPTIONS');
    expect(e.message).toContain('does not log the Last-Modified header');
  });
});

describe('log formats', () => {
  it('a format without the status or the time is refused with what is missing', () => {
    expect(() => compileLogFormat('%h "%r" %b')).toThrow(
      /does not log the status \(%>s or \$status\), the time/,
    );
    expect(() => compileLogFormat('$remote_addr $status [$time_local]')).toThrow(
      /does not log the request line/,
    );
    expect(() => compileLogFormat('%h %U%q %>s %t %m')).not.toThrow();
    expect(() => compileLogFormat('%h %r%>s %t')).toThrow(/%r and %>s with nothing between them/);
  });

  it('method and path as separate fields (%m %U%q, nginx $request_method $uri?$args)', async () => {
    const apache = '%t %m %U%q %>s';
    const nginx = '[$time_local] $request_method $uri?$args $status';
    expect(
      await locs(log('a.log', '[26/Nov/2026:08:12:01 +0000] GET /p?x=1&fbclid=zz 200\n'), { format: apache }),
    ).toEqual(['https://example.com/p?x=1']);
    expect(await locs(log('n.log', '[26/Nov/2026:08:12:01 +0000] GET /p? 200\n'), { format: nginx })).toEqual(
      ['https://example.com/p'],
    );
  });

  it('times: CLF with offsets, ISO 8601, $msec', () => {
    expect(logTime('[10/Oct/2000:13:55:36 -0700]', 'clf')).toBe(Date.parse('2000-10-10T20:55:36Z'));
    expect(logTime('10/Oct/2000:13:55:36 +0000', 'clf')).toBe(Date.parse('2000-10-10T13:55:36Z'));
    expect(logTime('10/Foo/2000:13:55:36 +0000', 'clf')).toBeUndefined();
    expect(logTime('1700000000.123', 'epoch-s')).toBe(1_700_000_000_123);
  });

  it('escapes: \\" \\\\ and \\xHH as UTF-8', () => {
    expect(unescapeLogValue('a\\"b\\\\c\\xC3\\xA9')).toBe('a"b\\cé');
    expect(unescapeLogValue('plain')).toBe('plain');
    // bytes that are no UTF-8 stay the bytes sent, percent-encoded (never U+FFFD)
    expect(unescapeLogValue('/caf\\xE9')).toBe('/caf%E9');
  });
});

describe('readAccessLogs: lines that do not fit', () => {
  it('unreadable lines are warnings naming the log and line, ten, then a count; the rest is read', async () => {
    const good = 'h - - [26/Nov/2026:08:12:01 +0000] "GET /a HTTP/1.1" 200 1';
    const lines = [good, ...Array.from({ length: 14 }, (_, i) => `junk ${i}`), good.replace('/a', '/b')];
    const diagnostics: Diagnostic[] = [];
    expect(
      await locs(log('mixed.log', lines.join('\n')), { onDiagnostic: (d) => diagnostics.push(d) }),
    ).toEqual(['https://example.com/a', 'https://example.com/b']);
    expect(diagnostics).toHaveLength(11);
    expect(diagnostics[0]).toMatchObject({ code: 'log-line-unreadable', sitemap: 'mixed.log', line: 2 });
    expect(diagnostics[0]!.message).toContain('not in the common or combined log format');
    expect(diagnostics[10]!.message).toBe('4 more lines could not be read and were left out');
  });

  it('a log no line of which fits fails naming it and the format; so does one whose first 100 lines do not', async () => {
    const e = await failure(
      all(readAccessLogs(log('error.log', '[error] 1#1: boom\n[error] again\n'), { site: SITE })),
    );
    expect(e.code).toBe('ERR_INPUT');
    expect([e.where, e.message]).toEqual(['error.log', 'no line is in the common or combined log format']);
    const json = Array.from({ length: 150 }, (_, i) => `{"path":"/p${i}","status":200}`).join('\n');
    const f = await failure(
      all(readAccessLogs(log('json.log', json), { site: SITE, format: '%h %t "%r" %>s' })),
    );
    expect([f.where, f.message]).toEqual([
      'json.log',
      'no line of the first 100 is in the "%h %t "%r" %>s" log format',
    ]);
  });
});

describe('readAccessLogs: invariants', () => {
  it('the records do not depend on how the bytes are split into chunks (a line, a UTF-8 character or a gzip header across reads)', async () => {
    const text = fixture('nginx-combined.log');
    const whole = await records(log('a.log', text));
    for (const chunk of [1, 2, 3, 7, 64]) {
      expect(await records(log('a.log', text, chunk)), `chunks of ${chunk}`).toEqual(whole);
      expect(await records(log('a.log', gzipSync(text), chunk)), `gzip in chunks of ${chunk}`).toEqual(whole);
    }
  });

  it('property: arbitrary paths and user agents round-trip through generated combined lines', async () => {
    const segment = fc.string({
      unit: fc.constantFrom('a', 'Z', '9', '-', '.', '_', '~', 'é', '€', '😀', ' ', '"', '%'),
      maxLength: 6,
    });
    const agent = fc.string({
      unit: fc.constantFrom('a', ' ', '"', '\\', '(', ')', ';', '/', 'é'),
      maxLength: 20,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ segments: fc.array(segment, { minLength: 1, maxLength: 3 }), agent, q: fc.boolean() }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        async (visits) => {
          // What a browser sends (percent-encoded) and what the server logs (quotes and
          // backslashes escaped in the agent, Apache style).
          const paths = visits.map(
            (v) =>
              `/${v.segments.map((s) => encodeURIComponent(s)).join('/')}/page${v.q ? '?id=1&utm_source=x' : ''}`,
          );
          const lines = visits.map(
            (v, i) =>
              `2001:db8::${i} - - [26/Nov/2026:08:12:01 +0000] "GET ${paths[i]} HTTP/1.1" 200 ${i === 0 ? '-' : i} "-" "${v.agent.replace(/[\\"]/g, (c) => `\\${c}`)}"`,
          );
          const expected = [
            ...new Set(
              paths.map((p) => new URL(`https://example.com${p.replace('&utm_source=x', '')}`).href),
            ),
          ];
          expect(await locs(log('p.log', lines.join('\n')), { format: 'combined' })).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readAccessLogs: a set shared with other inputs', () => {
  it('a URL already in the set is not yielded; the URLs yielded are added to it, with or without lastmod', async () => {
    const lines = ['/a', '/b', '/a']
      .map((p) => `h - - [26/Nov/2026:08:12:01 +0000] "GET ${p} HTTP/1.1" 200 1`)
      .join('\n');
    for (const lastmod of ['none', 'last-hit'] as const) {
      const set = new Set(['https://example.com/a']);
      const seen = { add: (u: string) => !set.has(u) && set.add(u) !== undefined };
      expect(await locs(log('a.log', lines), { seen, lastmod })).toEqual(['https://example.com/b']);
      expect([...set]).toEqual(['https://example.com/a', 'https://example.com/b']);
    }
  });
});

describe('readAccessLogs: long lines', () => {
  it('a line with a 1 MB user agent still gives its URL; a file with no line break fails as no log (its one line is cut at 64 KiB)', async () => {
    const long = `h - - [26/Nov/2026:08:12:01 +0000] "GET /a HTTP/1.1" 200 1 "-" "${'x'.repeat(1 << 20)}"`;
    expect(await locs(log('long.log', `${long}\n`, 65_536))).toEqual(['https://example.com/a']);
    const blob = Buffer.alloc(8 << 20, 0x61);
    const e = await failure(all(readAccessLogs(log('blob.log', blob, 65_536), { site: SITE })));
    expect([e.where, e.message]).toEqual(['blob.log', 'no line is in the common or combined log format']);
  });
});

describe('readAccessLogs: the summary', () => {
  it('a kept request seen again with another status or method is counted as what it is this time', async () => {
    const lines = [
      'h - - [26/Nov/2026:08:12:01 +0000] "GET /a HTTP/1.1" 200 1',
      'h - - [26/Nov/2026:08:12:02 +0000] "GET /a HTTP/1.1" 404 1',
      'h - - [26/Nov/2026:08:12:03 +0000] "GET /a HTTP/1.1" 304 1',
      'h - - [26/Nov/2026:08:12:04 +0000] "HEAD /a HTTP/1.1" 200 1',
    ].join('\n');
    const summaries: LogFileSummary[] = [];
    await records(log('a.log', lines), { onFile: (s) => summaries.push(s) });
    expect(summaries[0]).toMatchObject({ lines: 4, kept: 2, urls: 1, leftOut: { status: 1, method: 1 } });
  });
});

describe('log formats: property', () => {
  // A field of a format: its Apache and nginx spellings, whether it is quoted, and its values.
  const word = fc.stringMatching(/^[A-Za-z0-9.:_-]{1,12}$/);
  const quotedText = fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', ';', '(', 'é'), maxLength: 16 });
  const FIELDS = [
    { apache: '%h', nginx: '$remote_addr', quoted: false, value: word },
    { apache: '%u', nginx: '$remote_user', quoted: false, value: word },
    {
      apache: '%b',
      nginx: '$body_bytes_sent',
      quoted: false,
      value: fc.oneof(fc.constant('-'), fc.nat().map(String)),
    },
    { apache: '"%{User-agent}i"', nginx: '"$http_user_agent"', quoted: true, value: quotedText },
    { apache: '"%{Referer}i"', nginx: '"$http_referer"', quoted: true, value: quotedText },
  ] as const;
  const escaped = (s: string): string => s.replace(/[\\"]/g, (c) => `\\${c}`);

  it('any order of fields, with the request, status, time and host among them, reads back the values written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7, 8], { minLength: 9, maxLength: 9 }),
        fc.constantFrom('apache', 'nginx'),
        fc.tuple(...FIELDS.map((f) => f.value)),
        fc.stringMatching(/^\/[a-z0-9/_-]{0,12}$/), // no dot: an extension would make it an asset
        fc.constantFrom('200', '304', '404'),
        fc.constantFrom(' ', ' | ', '\t'),
        async (order, server, values, path, status, sep) => {
          const parts: string[] = [];
          const line: string[] = [];
          for (const i of order) {
            if (i < FIELDS.length) {
              const f = FIELDS[i]!;
              parts.push(server === 'apache' ? f.apache : f.nginx);
              line.push(f.quoted ? `"${escaped(values[i]!)}"` : values[i]!);
            } else if (i === 5) {
              parts.push(server === 'apache' ? '"%r"' : '"$request"');
              line.push(`"GET ${path} HTTP/1.1"`);
            } else if (i === 6) {
              parts.push(server === 'apache' ? '%>s' : '$status');
              line.push(status);
            } else if (i === 7) {
              parts.push(server === 'apache' ? '%t' : '[$time_local]');
              line.push('[26/Nov/2026:08:12:01 +0100]');
            } else {
              parts.push(server === 'apache' ? '%{Host}i' : '$host');
              line.push('example.com');
            }
          }
          const format = compileLogFormat(parts.join(sep));
          const read = format.read(line.join(sep));
          expect(read).toMatchObject({ request: `GET ${path} HTTP/1.1`, status, vhost: 'example.com' });
          expect(logTime(read!.time!, format.timeKind)).toBe(Date.parse('2026-11-26T07:12:01Z'));
          expect(await locs(log('p.log', line.join(sep)), { format: parts.join(sep) })).toEqual(
            status === '404' ? [] : [new URL(`https://example.com${path}`).href],
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
