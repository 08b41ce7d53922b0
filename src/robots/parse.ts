/**
 * Line and group parsing of robots.txt (RFC 9309 §2.1–2.2), with Google's leniencies in `google`
 * mode (google/robotstxt robots.cc `RobotsTxtParser`): a missing colon, frequent typos of the
 * keys, keys matched by prefix, a line length cap, and `* anything` as the global agent.
 * `rfc` mode keeps to the RFC's grammar. Both skip a (partial) UTF-8 BOM and accept CR, LF and
 * CRLF line ends.
 */

import { fromByteString } from './bytes.js';
import { escapePattern } from './match.js';

/** `google` follows Google's parser (the default: what webmasters test against); `rfc` is strict RFC 9309. */
export type RobotsMode = 'google' | 'rfc';

/** What a line of robots.txt is. `invalid` has text but no `key: value` shape. */
export type RobotsLineKind =
  | 'user-agent'
  | 'allow'
  | 'disallow'
  | 'sitemap'
  | 'crawl-delay'
  | 'unknown'
  | 'comment'
  | 'empty'
  | 'invalid';

/** One line of the file, as read. */
export interface RobotsLine {
  /** 1-based. */
  line: number;
  kind: RobotsLineKind;
  /** The line as written (UTF-8 decoded, comment included, cut at the line cap in google mode). */
  text: string;
  /** The key as written, for directive lines. */
  key?: string;
  /** The value as written (comment and surrounding whitespace removed), for directive lines. */
  value?: string;
  /** The key is a typo Google accepts (`dissallow`, `useragent`, `site-map`, …) or a prefix match. */
  typo?: true;
  /** Google accepted whitespace in place of the colon. */
  missingColon?: true;
  /** Longer than Google's 16,663-byte line cap: the rest was ignored. */
  tooLong?: true;
  /** Index into `groups` of the group the line belongs to. */
  group?: number;
}

/** An Allow or Disallow rule. */
export interface RobotsRule {
  type: 'allow' | 'disallow';
  /** 1-based line number. */
  line: number;
  /** The path pattern as written (decoded for display). */
  value: string;
  /** The pattern the matcher uses: a byte string, percent-encoded (see bytes.ts). */
  pattern: string;
  /** `key: value` as written, for explanations. */
  directive: string;
}

/** A `User-agent:` line. */
export interface RobotsAgent {
  line: number;
  /** The value as written. */
  value: string;
  /** The product token the matcher compares (leading `[a-zA-Z_-]`); empty when there is none. */
  token: string;
  /** `*`: the group for every crawler without a group of its own. */
  global: boolean;
}

/** One group: its user-agent lines and the rules after them (RFC 9309 §2.1). */
export interface RobotsGroup {
  index: number;
  agents: RobotsAgent[];
  rules: RobotsRule[];
  /** The first valid `Crawl-delay:` of the group. */
  crawlDelay?: { line: number; seconds: number };
  /** First and last line of the group. */
  startLine: number;
  endLine: number;
}

/** A `Sitemap:` line: anywhere in the file, independent of groups. */
export interface RobotsSitemapLine {
  line: number;
  /** As written. */
  value: string;
  /** The absolute http(s) URL (resolved against the robots.txt URL when relative), if there is one. */
  url?: string;
  relative: boolean;
}

export interface ParsedRobotsTxt {
  lines: RobotsLine[];
  groups: RobotsGroup[];
  sitemaps: RobotsSitemapLine[];
  /** Allow/Disallow lines before the first User-agent line: ignored (RFC 9309 §2.1). */
  orphanRules: RobotsRule[];
}

// Google: 8 × 2083 (a browser's URL cap) minus the terminating NUL.
export const GOOGLE_MAX_LINE_BYTES: number = 8 * 2083 - 1;

const BOM = [0xef, 0xbb, 0xbf];
const WHITE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

function strip(s: string): string {
  return s.replace(WHITE, '');
}

const DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'];

interface KeyType {
  kind: 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay' | 'unknown';
  typo: boolean;
}

function googleKey(key: string): KeyType {
  // Prefix matching is Google's (`StartsWithIgnoreCase`); prefix hits are reported as typos too.
  const k = key.toLowerCase();
  if (k.startsWith('user-agent')) return { kind: 'user-agent', typo: k !== 'user-agent' };
  if (k.startsWith('useragent') || k.startsWith('user agent')) return { kind: 'user-agent', typo: true };
  if (k.startsWith('allow')) return { kind: 'allow', typo: k !== 'allow' };
  if (k.startsWith('disallow')) return { kind: 'disallow', typo: k !== 'disallow' };
  for (const t of DISALLOW_TYPOS) if (k.startsWith(t)) return { kind: 'disallow', typo: true };
  if (k.startsWith('sitemap')) return { kind: 'sitemap', typo: k !== 'sitemap' };
  if (k.startsWith('site-map')) return { kind: 'sitemap', typo: true };
  if (k === 'crawl-delay') return { kind: 'crawl-delay', typo: false };
  return { kind: 'unknown', typo: false };
}

function rfcKey(key: string): KeyType {
  const lower = key.toLowerCase();
  switch (lower) {
    case 'user-agent':
    case 'allow':
    case 'disallow':
    case 'sitemap':
    case 'crawl-delay':
      return { kind: lower, typo: false };
    default:
      return { kind: 'unknown', typo: false };
  }
}

/** Splits the byte string into lines the way google/robotstxt does (BOM, CR/LF/CRLF, line cap). */
function splitLines(body: string, mode: RobotsMode): Array<{ text: string; tooLong: boolean }> {
  let start = 0;
  // A UTF-8 BOM, even a partial one, is skipped at the very start.
  while (start < 3 && body.charCodeAt(start) === BOM[start]) start++;
  const out: Array<{ text: string; tooLong: boolean }> = [];
  const cap = mode === 'google' ? GOOGLE_MAX_LINE_BYTES : Number.POSITIVE_INFINITY;
  let lineStart = start;
  let lastWasCr = false;
  for (let i = start; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c !== 0x0a && c !== 0x0d) continue;
    // The LF of a CRLF does not end a second, empty line.
    if (!(c === 0x0a && lastWasCr && i === lineStart)) {
      const len = i - lineStart;
      out.push({ text: body.slice(lineStart, lineStart + Math.min(len, cap)), tooLong: len > cap });
    }
    lineStart = i + 1;
    lastWasCr = c === 0x0d;
  }
  const len = body.length - lineStart;
  out.push({ text: body.slice(lineStart, lineStart + Math.min(len, cap)), tooLong: len > cap });
  return out;
}

interface KeyValue {
  key: string;
  value: string;
  missingColon: boolean;
}

/** `key: value` of a line with its comment removed; undefined when the line has no such shape. */
function keyValue(content: string, mode: RobotsMode): KeyValue | undefined {
  let sep = content.indexOf(':');
  let missingColon = false;
  if (sep === -1) {
    if (mode === 'rfc') return undefined;
    // Google accepts whitespace for the colon, but only between exactly two words.
    const m = /[ \t]/.exec(content);
    if (m === null) return undefined;
    const rest = content.slice(m.index).replace(/^[ \t]+/, '');
    if (/[ \t]/.test(rest)) return undefined;
    sep = m.index;
    missingColon = true;
  }
  const key = strip(content.slice(0, sep));
  if (key === '') return undefined;
  return { key, value: strip(content.slice(sep + 1)), missingColon };
}

/** Google's user-agent value rule: `*` (then whitespace) is global; else the leading product token. */
function agentOf(line: number, raw: string, value: string, mode: RobotsMode): RobotsAgent {
  const global = mode === 'google' ? raw === '*' || /^\*[ \t\n\v\f\r]/.test(raw) : raw === '*';
  const token = global ? '*' : (/^[A-Za-z_-]*/.exec(raw)?.[0] ?? '');
  return { line, value, token, global };
}

/** Parses a byte string (see bytes.ts) into lines, groups and sitemaps. */
export function parseLines(body: string, mode: RobotsMode, baseUrl: string | undefined): ParsedRobotsTxt {
  const lines: RobotsLine[] = [];
  const groups: RobotsGroup[] = [];
  const sitemaps: RobotsSitemapLine[] = [];
  const orphanRules: RobotsRule[] = [];
  let current: RobotsGroup | undefined;
  let sawRule = false;
  // Most files are ASCII: then decoding is the identity, and the per-line test can be skipped.
  const decode = /^[\x00-\x7f]*$/.test(body) ? (x: string): string => x : fromByteString;
  const raw = splitLines(body, mode);
  for (let i = 0; i < raw.length; i++) {
    const { text, tooLong } = raw[i]!;
    const n = i + 1;
    const entry: RobotsLine = { line: n, kind: 'empty', text: decode(text) };
    if (tooLong) entry.tooLong = true;
    lines.push(entry);
    const hash = text.indexOf('#');
    const content = strip(hash === -1 ? text : text.slice(0, hash));
    if (content === '') {
      entry.kind = hash === -1 ? 'empty' : 'comment';
      if (current !== undefined) entry.group = current.index;
      continue;
    }
    const kv = keyValue(content, mode);
    if (kv === undefined) {
      entry.kind = 'invalid';
      if (current !== undefined) entry.group = current.index;
      continue;
    }
    const type = mode === 'google' ? googleKey(kv.key) : rfcKey(kv.key);
    entry.kind = type.kind;
    entry.key = decode(kv.key);
    entry.value = decode(kv.value);
    if (type.typo) entry.typo = true;
    if (kv.missingColon) entry.missingColon = true;
    switch (type.kind) {
      case 'user-agent': {
        if (current === undefined || sawRule) {
          current = { index: groups.length, agents: [], rules: [], startLine: n, endLine: n };
          groups.push(current);
          sawRule = false;
        }
        current.agents.push(agentOf(n, kv.value, entry.value, mode));
        break;
      }
      case 'allow':
      case 'disallow': {
        const rule: RobotsRule = {
          type: type.kind,
          line: n,
          value: entry.value,
          pattern: escapePattern(kv.value),
          directive: `${entry.key}: ${entry.value}`,
        };
        if (current === undefined) orphanRules.push(rule);
        else {
          current.rules.push(rule);
          sawRule = true;
        }
        break;
      }
      case 'sitemap':
        sitemaps.push(sitemapLine(n, entry.value, baseUrl));
        break;
      case 'crawl-delay': {
        const seconds = /^\d+(\.\d+)?$|^\.\d+$/.test(entry.value) ? Number(entry.value) : Number.NaN;
        if (current !== undefined && current.crawlDelay === undefined && Number.isFinite(seconds)) {
          current.crawlDelay = { line: n, seconds };
        }
        break;
      }
      case 'unknown':
        break;
    }
    if (current !== undefined && type.kind !== 'sitemap') {
      entry.group = current.index;
      current.endLine = n;
    }
  }
  return { lines, groups, sitemaps, orphanRules };
}

function sitemapLine(line: number, value: string, baseUrl: string | undefined): RobotsSitemapLine {
  const relative = !/^[a-z][a-z0-9+.-]*:/i.test(value);
  const out: RobotsSitemapLine = { line, value, relative };
  try {
    const u = relative && baseUrl !== undefined ? new URL(value, baseUrl) : new URL(value);
    if (u.protocol === 'http:' || u.protocol === 'https:') out.url = u.href;
  } catch {
    // Not a URL: the lint reports it; it is left out of `sitemaps`.
  }
  return out;
}
