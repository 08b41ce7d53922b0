/**
 * `n.toLocaleString('en-US')` for the counts in messages and reports ("1,234"), without ICU: the
 * first call of `toLocaleString` sets up ICU's number formatting, about 10 ms of CPU, which was an
 * eighth of a one-URL `sitemapkit validate` or `generate` (start-up, issue 16). Whole numbers are
 * grouped here; anything else (fractions, -0, beyond 2^53) is left to `toLocaleString`, so the
 * text is the same for every number (test/core/en-number.test.ts holds it to `toLocaleString`).
 */
export function enNumber(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(n < 0 ? -n : n);
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
