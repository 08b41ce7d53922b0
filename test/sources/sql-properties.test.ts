/**
 * Properties of `--from-sql` on a real PostgreSQL: text columns give the records the CSV reader
 * gives for the same cells (one column mapping, NULL as an empty cell), and dates and times keep
 * their instant whatever the zone of the server session and of this process.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsvText } from '../../src/sources/csv.js';
import { readSql } from '../../src/sources/index.js';
import { locArb } from '../support/arbitraries.js';
import { usePostgres } from '../support/postgres.js';
import { all } from './helpers.js';

const COLUMNS = ['loc', 'lastmod', 'changefreq', 'priority', 'section', 'images', 'hreflang:de', 'mobile'];

/** A cell, or '' (NULL in the table, an empty cell in the CSV). No edge white space: CSV trims it. */
const cell = (values: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 3, arbitrary: values });
const rowArb = fc.tuple(
  locArb,
  cell(
    fc.constantFrom(
      '2024-03-01',
      '2024-03-01T10:30:00Z',
      '1700000000',
      '1700000000123',
      'yesterday',
      '2024-02-30',
    ),
  ),
  cell(fc.constantFrom('daily', 'weekly', 'Never', 'often')),
  cell(fc.constantFrom('0.5', '1', '1.0', '2', 'high')),
  cell(fc.constantFrom('news', 'blog', 'docs/v2')),
  cell(
    fc
      .array(
        locArb.map((u) => u.trim()).filter((u) => u !== '' && !u.includes('|')),
        { minLength: 1, maxLength: 3 },
      )
      .map((a) => a.join('|')),
  ),
  cell(locArb.map((u) => u.trim()).filter((u) => u !== '')),
  cell(fc.constantFrom('true', 'yes', '1', 'no', 'false')),
);

function csvOf(rows: string[][]): string {
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  return [COLUMNS, ...rows].map((r) => r.map(quote).join(',')).join('\n');
}

/** A record's fields without its origin. */
function fieldsOf(r: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r));
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

describe('--from-sql properties', () => {
  const server = usePostgres();

  it('text columns read as the same cells in a CSV file do; NULL is an empty cell', async () => {
    await server().query(`CREATE TABLE cells (i int, ${COLUMNS.map((c) => `"${c}" text`).join(', ')})`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          rowArb.map((r) => r.map((c) => c.trim())),
          { minLength: 1, maxLength: 20 },
        ),
        async (rows) => {
          await server().query('TRUNCATE cells');
          for (const [i, r] of rows.entries()) {
            await server().query(
              `INSERT INTO cells VALUES ($1, ${r.map((_, k) => `$${k + 2}`).join(', ')})`,
              [i, ...r.map((c) => (c === '' ? null : c))],
            );
          }
          const fromSql = await all(
            readSql(`SELECT ${COLUMNS.map((c) => `"${c}"`).join(', ')} FROM cells ORDER BY i`, server().url),
          );
          const fromCsv = await all(readCsvText(once(csvOf(rows)), 'cells.csv'));
          expect(fromSql.map(fieldsOf)).toEqual(fromCsv.map(fieldsOf));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('timestamptz, timestamp and date keep their instant whatever the zones of the session and of Node', async () => {
    const s = server();
    await s.query('CREATE TABLE times (i int, tz timestamptz, plain timestamp, day date)');
    // Sessions of this database, and this process, are not in UTC: the reader must not depend on either.
    await s.query(`ALTER DATABASE ${s.database} SET timezone = 'America/St_Johns'`);
    const savedTz = process.env['TZ'];
    process.env['TZ'] = 'Asia/Kolkata';
    const instantArb = fc.date({
      min: new Date('1970-01-02T00:00:00Z'),
      max: new Date('2099-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    const offsetArb = fc.integer({ min: -12 * 60, max: 14 * 60 }).map((m) => m - (m % 15));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(instantArb, offsetArb), { minLength: 1, maxLength: 10 }),
          async (cases) => {
            await s.query('TRUNCATE times');
            for (const [i, [at, offset]] of cases.entries()) {
              // The instant written in some zone (as a client would), and its UTC wall clock for `timestamp`.
              const local = new Date(at.getTime() + offset * 60_000)
                .toISOString()
                .slice(0, 23)
                .replace('T', ' ');
              const sign = offset < 0 ? '-' : '+';
              const zone = `${sign}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
              const utc = at.toISOString().slice(0, 23).replace('T', ' ');
              await s.query('INSERT INTO times VALUES ($1, $2::timestamptz, $3::timestamp, $4::date)', [
                i,
                `${local}${zone}`,
                utc,
                at.toISOString().slice(0, 10),
              ]);
            }
            const read = async (col: string) =>
              (
                await all(
                  readSql(
                    `SELECT 'https://example.com/' || i AS loc, ${col} AS lastmod FROM times ORDER BY i`,
                    s.url,
                  ),
                )
              ).map((r) => r['lastmod'] as string);
            const tz = await read('tz');
            const plain = await read('plain');
            const day = await read('day');
            cases.forEach(([at], k) => {
              expect(Date.parse(tz[k]!)).toBe(at.getTime());
              expect(tz[k]).toMatch(/Z$/);
              expect(Date.parse(plain[k]!)).toBe(at.getTime());
              expect(day[k]).toBe(at.toISOString().slice(0, 10));
            });
          },
        ),
        { numRuns: 30 },
      );
    } finally {
      if (savedTz === undefined) delete process.env['TZ'];
      else process.env['TZ'] = savedTz;
      await s.query(`ALTER DATABASE ${s.database} RESET timezone`);
    }
  });
});
