/**
 * lastmod: W3C Datetime (the protocol's text) versus the XSD's `date | dateTime` union (what
 * xmllint enforces). They disagree on some values (`test/fixtures/spec/data/lastmod-cases.json`), so
 * the writer only emits values both accept and the validator warns where they differ.
 */

const W3C =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;
const XSD = /^(-?)(\d{4,})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function validDate(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

function validZone(z: string | undefined): boolean {
  if (z === undefined || z === 'Z') return true;
  const h = Number(z.slice(1, 3));
  const min = Number(z.slice(4, 6));
  return h <= 14 && min <= 59 && (h < 14 || min === 0);
}

/** Whether a value is one of the six W3C Datetime forms, with a real calendar date and time. */
export function isW3cDatetime(value: string): boolean {
  const m = W3C.exec(value);
  if (m === null) return false;
  const y = Number(m[1]);
  if (m[2] !== undefined) {
    const mo = Number(m[2]);
    if (mo < 1 || mo > 12) return false;
    if (m[3] !== undefined && !validDate(y, mo, Number(m[3]))) return false;
  }
  if (m[4] !== undefined) {
    if (Number(m[4]) > 23 || Number(m[5]) > 59 || (m[6] !== undefined && Number(m[6]) > 59)) return false;
    if (!validZone(m[7])) return false;
  }
  return true;
}

/** Whether the sitemap XSD (`xsd:date | xsd:dateTime`, whitespace collapsed) accepts a value. */
export function isXsdLastmod(value: string): boolean {
  const m = XSD.exec(value.trim());
  if (m === null) return false;
  const yearText = m[2]!;
  if (yearText.length > 4 && yearText.startsWith('0')) return false;
  const y = Number(yearText);
  if (y === 0) return false;
  if (!validDate(y, Number(m[3]), Number(m[4]))) return false;
  if (m[5] !== undefined) {
    const h = Number(m[5]);
    const mi = Number(m[6]);
    const s = Number(m[7]);
    const endOfDay = h === 24 && mi === 0 && s === 0;
    if (!endOfDay && (h > 23 || mi > 59 || s > 59)) return false;
  }
  return validZone(m[8]);
}

// YYYY-MM-DD, or a full date-time with seconds (optional fraction) and a zone: accepted by both
// W3C and the XSD once the calendar and clock values are checked.
const FAST_FORMS = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/;

function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** `YYYY-MM-DD` with a real calendar date, by character codes. */
function isPlainDate(s: string): boolean {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 7);
  const d = digits(s, 8, 10);
  return y > 0 && m > 0 && d > 0 && validDate(y, m, d);
}

function fastValid(m: RegExpExecArray | null): boolean {
  if (m === null) return false;
  const y = Number(m[1]);
  if (y === 0 || !validDate(y, Number(m[2]), Number(m[3]))) return false;
  if (m[4] === undefined) return true;
  return Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59 && validZone(m[7]);
}

// A zero offset is written as `Z`, so one set never mixes `Z` and `+00:00` (W3C allows both).
const ZERO_OFFSET = /[+-]00:00$/;

/** Whether a string is a lastmod the writer keeps exactly as written (the fast path of {@link normalizeLastmod}). */
export function isFinalLastmod(s: string): boolean {
  return s.length === 10 ? isPlainDate(s) : fastValid(FAST_FORMS.exec(s)) && !ZERO_OFFSET.test(s);
}

function utcAsZ(value: string): LastmodResult {
  return { ok: true, value: ZERO_OFFSET.test(value) ? `${value.slice(0, -6)}Z` : value };
}

export type LastmodInput = string | number | Date;

export type LastmodResult = { ok: true; value: string } | { ok: false; message: string };

function fromEpochMs(ms: number): LastmodResult {
  if (!Number.isFinite(ms)) return { ok: false, message: `${ms} is not a date` };
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return { ok: false, message: `${ms} is out of the date range` };
  const year = d.getUTCFullYear();
  if (year < 1 || year > 9999) return { ok: false, message: `${d.toISOString()} is outside years 1 to 9999` };
  return { ok: true, value: formatUtc(d) };
}

/** `YYYY-MM-DDThh:mm:ssZ`, with milliseconds only when there are some. */
export function formatUtc(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
}

// An HTTP date (Last-Modified, RSS pubDate): it names its zone, so it converts without guessing.
const HTTP_DATE =
  /^(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{2,4}\s+\d{2}:\d{2}(?::\d{2})?\s+(?:GMT|UT|UTC|Z|[+-]\d{4}|[A-Z]{3})$/;

/**
 * The writer's lastmod normalisation (the only place it is defined):
 * - a string both W3C and the XSD accept is kept as written, except that a zero offset
 *   (`+00:00`, `-00:00`) becomes `Z`: one spelling of UTC throughout a set;
 * - `YYYY-MM-DDThh:mmTZD` (W3C, refused by the XSD) gains `:00` seconds;
 * - an HTTP date (`Mon, 15 Aug 2024 09:12:00 GMT`) becomes UTC `YYYY-MM-DDThh:mm:ssZ`;
 * - a `Date`, or a number of epoch seconds (below 1e11) or milliseconds, becomes UTC;
 * - anything else, including a time without a zone, is refused: the writer never guesses a zone.
 */
export function normalizeLastmod(input: LastmodInput): LastmodResult {
  if (input instanceof Date) return fromEpochMs(input.getTime());
  if (typeof input === 'number') return fromEpochMs(Math.abs(input) < 1e11 ? input * 1000 : input);
  if (typeof input !== 'string')
    return { ok: false, message: `expected a string, number or Date, got ${typeof input}` };
  // The common forms, checked without the two general regexes (this runs once per URL).
  if (input.length === 10 ? isPlainDate(input) : fastValid(FAST_FORMS.exec(input))) return utcAsZ(input);
  const s = input.trim();
  if (isW3cDatetime(s)) {
    if (isXsdLastmod(s)) return utcAsZ(s);
    const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})$/.exec(s);
    if (m !== null) return utcAsZ(`${m[1]}:00${m[2]}`);
    return {
      ok: false,
      message: `"${s}" is a year or month only; give a full date (YYYY-MM-DD), which search engines and the XSD accept`,
    };
  }
  if (HTTP_DATE.test(s)) {
    const ms = Date.parse(s);
    if (!Number.isNaN(ms)) return fromEpochMs(ms);
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) {
    return { ok: false, message: `"${s}" has a time but no time zone; add Z or an offset such as +02:00` };
  }
  return {
    ok: false,
    message: `"${s}" is not a W3C Datetime; use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss with Z or an offset`,
  };
}
