/**
 * Access log formats in the servers' own syntax: Apache `LogFormat` directives (`%h %l %u %t
 * \"%r\" %>s %b`) and nginx `log_format` variables (`$remote_addr … "$request" $status`), compiled
 * into a line reader that finds the fields sitemapkit needs. Pure: no I/O.
 */
import { SitemapkitError } from '../core/errors.js';

/** The fields sitemapkit reads from a log line; every other field is skipped. */
export type LogField =
  | 'request'
  | 'method'
  | 'path'
  | 'query'
  | 'status'
  | 'time'
  | 'vhost'
  | 'last-modified'
  | 'other';

/** What a format's time field holds. */
type TimeKind = 'clf' | 'iso' | 'epoch-s' | 'epoch-ms';

interface FieldToken {
  field: LogField;
  time?: TimeKind;
  /** The directive as written (`%>s`, `$status`), for messages. */
  name: string;
}

type Token = string | FieldToken;

/** The values of one line, raw as logged (escapes still in), `undefined` when absent or `-`. */
export interface LogLine {
  request?: string;
  method?: string;
  path?: string;
  query?: string;
  status?: string;
  time?: string;
  vhost?: string;
  lastModified?: string;
}

/** A compiled format: `read(line)` gives its fields, or undefined when the line does not fit. */
export interface LogFormat {
  /** `common`, `combined`, or the format as given. */
  readonly name: string;
  /** Which time kind the format logs. */
  readonly timeKind: TimeKind;
  /** Whether a `Host`/virtual-host field is logged. */
  readonly hasVhost: boolean;
  /** Whether the response's `Last-Modified` header is logged. */
  readonly hasLastModified: boolean;
  read(line: string): LogLine | undefined;
}

/** Apache's and nginx's common log format; combined adds `"referer" "user-agent"`. */
export const COMMON_FORMAT = '%h %l %u %t "%r" %>s %b';
export const COMBINED_FORMAT = '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"';

const APACHE: Readonly<Record<string, LogField>> = {
  r: 'request',
  m: 'method',
  U: 'path',
  q: 'query',
  s: 'status',
  t: 'time',
  v: 'vhost',
  V: 'vhost',
};

const NGINX: Readonly<Record<string, [LogField, TimeKind?]>> = {
  request: ['request'],
  request_method: ['method'],
  request_uri: ['path'],
  uri: ['path'],
  document_uri: ['path'],
  args: ['query'],
  query_string: ['query'],
  status: ['status'],
  time_local: ['time', 'clf'],
  time_iso8601: ['time', 'iso'],
  msec: ['time', 'epoch-s'],
  host: ['vhost'],
  http_host: ['vhost'],
  server_name: ['vhost'],
  sent_http_last_modified: ['last-modified'],
};

function refuse(format: string, why: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', `the log format "${format}" ${why}`, {
    hint: 'Give the LogFormat of your Apache (such as %h %l %u %t "%r" %>s %b) or the log_format of your nginx (such as $remote_addr - $remote_user [$time_local] "$request" $status), or common or combined.',
  });
}

/**
 * The format string as pasted from a server's configuration: a whole `LogFormat "…" name` line,
 * an nginx `log_format name '…' '…';` with its quoted pieces, or Apache's `\"` escapes.
 */
export function unwrapFormat(raw: string): string {
  let s = raw.trim();
  const apache = /^LogFormat\s+"((?:[^"\\]|\\.)*)"/i.exec(s);
  if (apache !== null) s = apache[1]!;
  const nginx = /^log_format\s+\S+\s+(?:escape=\S+\s+)?([\s\S]*?);?\s*$/.exec(s);
  if (nginx !== null) s = nginx[1]!;
  // nginx writes a long format as several single-quoted pieces, which the server joins.
  if (s.startsWith("'")) {
    const pieces = [...s.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1]!);
    if (pieces.length > 0) s = pieces.join('');
  }
  return s.replace(/\\(["\\'])/g, '$1').replace(/\\t/g, '\t');
}

function tokenizeApache(format: string): Token[] {
  const tokens: Token[] = [];
  let literal = '';
  const re = /%([<>]?)(!?[\d,]*)(?:\{([^}]*)\})?([<>]?)([a-zA-Z%])/y;
  for (let i = 0; i < format.length; ) {
    if (format[i] !== '%') {
      literal += format[i];
      i++;
      continue;
    }
    re.lastIndex = i;
    const m = re.exec(format);
    if (m === null) throw refuse(format, `has a % at character ${i + 1} that starts no directive`);
    i = re.lastIndex;
    const letter = m[5]!;
    if (letter === '%') {
      literal += '%';
      continue;
    }
    if (literal !== '') tokens.push(literal);
    literal = '';
    const arg = m[3];
    let field: LogField = APACHE[letter] ?? 'other';
    let time: TimeKind | undefined;
    if (letter === 't') {
      if (arg === undefined) time = 'clf';
      else if (arg === 'sec') time = 'epoch-s';
      else if (arg === 'msec') time = 'epoch-ms';
      else field = 'other'; // a strftime pattern: not read as the time
    }
    if (letter === 'i' && arg?.toLowerCase() === 'host') field = 'vhost';
    if (letter === 'o' && arg?.toLowerCase() === 'last-modified') field = 'last-modified';
    if (letter !== 'i' && letter !== 'o' && letter !== 't' && arg !== undefined) field = 'other';
    tokens.push({ field, name: m[0], ...(time !== undefined && { time }) });
  }
  if (literal !== '') tokens.push(literal);
  return tokens;
}

function tokenizeNginx(format: string): Token[] {
  const tokens: Token[] = [];
  let literal = '';
  const re = /\$(?:\{(\w+)\}|(\w+))/y;
  for (let i = 0; i < format.length; ) {
    if (format[i] !== '$') {
      literal += format[i];
      i++;
      continue;
    }
    re.lastIndex = i;
    const m = re.exec(format);
    if (m === null) {
      literal += '$';
      i++;
      continue;
    }
    i = re.lastIndex;
    if (literal !== '') tokens.push(literal);
    literal = '';
    const name = (m[1] ?? m[2]!).toLowerCase();
    const [field, time] = NGINX[name] ?? ['other'];
    tokens.push({ field, name: m[0], ...(time !== undefined && { time }) });
  }
  if (literal !== '') tokens.push(literal);
  return tokens;
}

/** How one field's value ends, decided at compile time. */
interface Step {
  field: LogField;
  /** The literal after the field, or '' when the field runs to the end of the line. */
  until: string;
  /** The field is inside double quotes: `\"` inside it does not end it. */
  quoted: boolean;
  /** The field is Apache's `%t` (`[10/Oct/2000:13:55:36 -0700]`): it ends at its `]`. */
  bracketed: boolean;
}

/** Reads the value of a field that ends at `until`, from `at`; -1 when it is not there. */
function fieldEnd(line: string, at: number, step: Step): number {
  if (step.until === '') return line.length;
  if (step.bracketed && line.charCodeAt(at) === 91 /* [ */) {
    const close = line.indexOf(']', at);
    return close === -1 ? -1 : close + 1;
  }
  if (!step.quoted) return line.indexOf(step.until, at);
  // Inside quotes the servers escape `"` and `\` with a backslash: a quote preceded by an odd
  // number of backslashes is part of the value (a user agent such as `Mozilla \"x\"`).
  let from = at;
  for (;;) {
    const q = line.indexOf(step.until, from);
    if (q === -1) return -1;
    let backslashes = 0;
    for (let k = q - 1; k >= at && line.charCodeAt(k) === 92; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}

const KEYS: Readonly<Partial<Record<LogField, keyof LogLine>>> = {
  request: 'request',
  method: 'method',
  path: 'path',
  query: 'query',
  status: 'status',
  time: 'time',
  vhost: 'vhost',
  'last-modified': 'lastModified',
};

/**
 * Compiles a format: `common`, `combined` (either also reads lines that carry more fields after
 * them, such as nginx's default `main` or `$request_time`), an Apache `LogFormat` string or an
 * nginx `log_format` string. Refused with a sentence when the request (or method and path), the
 * status or the time is missing, or when two fields touch with nothing between them.
 */
export function compileLogFormat(format: string): LogFormat {
  const given = format.trim();
  const lower = given.toLowerCase();
  const source =
    lower === 'common' || lower === 'clf' ? COMMON_FORMAT : lower === 'combined' ? COMBINED_FORMAT : given;
  const text = unwrapFormat(source);
  if (text === '') throw refuse(given, 'is empty');
  const tokens =
    text.includes('$') && !/%[<>]?[a-zA-Z{]/.test(text) ? tokenizeNginx(text) : tokenizeApache(text);
  const fields = tokens.filter((t): t is FieldToken => typeof t !== 'string');
  const has = (f: LogField): boolean => fields.some((t) => t.field === f);
  const missing: string[] = [];
  if (!has('request') && !(has('method') && has('path')))
    missing.push(
      'the request line (%r or $request; or the method and the path: %m and %U%q, $request_method and $request_uri)',
    );
  if (!has('status')) missing.push('the status (%>s or $status)');
  const time = fields.find((t) => t.field === 'time');
  if (time === undefined) missing.push('the time (%t or $time_local, $time_iso8601, $msec)');
  if (missing.length > 0) throw refuse(given, `does not log ${missing.join(', ')}`);

  // Apache's `%U%q` touch: the query (with its `?`) is read as part of the path.
  const merged: Token[] = [];
  for (const t of tokens) {
    const prev = merged[merged.length - 1];
    if (typeof t !== 'string' && t.field === 'query' && typeof prev !== 'string' && prev?.field === 'path')
      continue;
    merged.push(t);
  }
  const steps: Step[] = [];
  let lead = '';
  for (let i = 0; i < merged.length; i++) {
    const t = merged[i]!;
    if (typeof t === 'string') {
      if (steps.length === 0) lead += t;
      continue;
    }
    const next = merged[i + 1];
    if (next !== undefined && typeof next !== 'string')
      throw refuse(
        given,
        `has ${t.name} and ${next.name} with nothing between them, so a line cannot be split`,
      );
    const before = merged[i - 1];
    steps.push({
      field: t.field,
      until: next ?? '',
      quoted: typeof before === 'string' && before.endsWith('"') && next?.startsWith('"') === true,
      bracketed: t.field === 'time' && t.time === 'clf',
    });
  }
  const keyed = steps.map((s) => KEYS[s.field]);
  const name = lower === 'common' || lower === 'clf' || lower === 'combined' ? lower : given;
  return {
    name,
    timeKind: time!.time ?? 'clf',
    hasVhost: has('vhost'),
    hasLastModified: has('last-modified'),
    read(line: string): LogLine | undefined {
      if (lead !== '' && !line.startsWith(lead)) return undefined;
      let at = lead.length;
      const out: LogLine = {};
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        const end = fieldEnd(line, at, step);
        if (end === -1) return undefined;
        const key = keyed[i];
        if (key !== undefined) {
          const value = line.slice(at, end);
          if (value !== '-' && value !== '') out[key] = value;
        }
        at = end + step.until.length;
      }
      // Lines may carry more fields than the format names (combined read as common, nginx's
      // $request_time after the user agent): what follows the last field is left alone.
      return out;
    },
  };
}

const MONTHS: Readonly<Record<string, number>> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

const CLF_TIME =
  /^\[?(\d{1,2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?: ([+-])(\d{2})(\d{2}))?\]?$/;

/** A logged time in epoch milliseconds, or undefined when it cannot be read. */
export function logTime(value: string, kind: TimeKind): number | undefined {
  if (kind === 'clf') {
    const m = CLF_TIME.exec(value);
    if (m === null) return undefined;
    const month = MONTHS[m[2]!];
    if (month === undefined) return undefined;
    const utc = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
    const offset =
      m[7] === undefined ? 0 : (Number(m[8]) * 60 + Number(m[9])) * 60_000 * (m[7] === '-' ? -1 : 1);
    return utc - offset;
  }
  if (kind === 'iso') {
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  const n = Number(value);
  if (!Number.isFinite(n) || value.trim() === '') return undefined;
  return kind === 'epoch-s' ? Math.round(n * 1000) : Math.round(n);
}

/**
 * A logged value with the servers' escapes undone: `\"` and `\\` (both), and `\xHH` bytes (nginx
 * for bytes outside printable ASCII, Apache for control bytes), read as UTF-8.
 */
export function unescapeLogValue(value: string): string {
  if (!value.includes('\\')) return value;
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 92 && i + 1 < value.length) {
      const n = value[i + 1]!;
      if ((n === 'x' || n === 'X') && /^[0-9a-fA-F]{2}$/.test(value.slice(i + 2, i + 4))) {
        bytes.push(Number.parseInt(value.slice(i + 2, i + 4), 16));
        i += 3;
        continue;
      }
      if (n === '"' || n === '\\') {
        bytes.push(n.charCodeAt(0));
        i++;
        continue;
      }
    }
    const cp = value.codePointAt(i)!;
    if (cp > 0xffff) i++;
    for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) bytes.push(b);
  }
  try {
    return UTF8.decode(Uint8Array.from(bytes));
  } catch {
    // Not UTF-8 (a Latin-1 link, `\xE9`): the bytes as they were sent, percent-encoded, rather
    // than U+FFFD, which would reach the sitemap as %EF%BF%BD.
    return bytes
      .map((b) =>
        b >= 0x80 || b < 0x21 ? `%${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b),
      )
      .join('');
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
