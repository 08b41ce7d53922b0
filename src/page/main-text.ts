/**
 * The fingerprint of a page's main text, which a recrawl compares to tell a changed page from one
 * whose markup merely differs on every request. What counts, exactly:
 *
 * - the text of the document outside `<head>` and outside `<script>`, `<style>`, `<noscript>` and
 *   `<template>` elements, after entity decoding (`&amp;` and `&#38;` are the same `&`; an entity
 *   cut in two by a tag, `&am<b>p;`, is read whole);
 * - whitespace runs (any of JavaScript's `\s`, `&nbsp;` included) collapsed to one space, and none
 *   at the start or the end: re-indented markup is the same text;
 * - the `<title>`, which people see and search engines show.
 *
 * Attributes never count (a CSRF token in a hidden input, a nonce, a cache-busting `?v=123`), and
 * neither does anything in `<head>` but the title (`<meta name="csrf-token">`, a timestamp in a
 * comment or a script). Tags never count either: `<b>a</b>b` is the text `ab`, as is `ab`.
 *
 * The hash is SHA-256 over the UTF-8 text, streamed: a page is never held in memory for it.
 */
import { createHash, type Hash } from 'node:crypto';
import { decodeHTML } from 'entities';

const WHITESPACE = /\s+/g;
/**
 * The runs {@link WHITESPACE} would replace, minus the single spaces already as they should be:
 * the same result with a tenth of the matches on ordinary text (half the reader's extra time).
 */
const NOT_ONE_SPACE = /\s{2,}|[^\S ]/g;

/** The elements whose content is not main text (their own markup is skipped too). */
export const NON_TEXT_ELEMENTS: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template']);

/**
 * The elements `<head>` may hold; any other opening tag there ends it, as in a browser (a page
 * that never closes `<head>` and has no `<body>` tag still has main text).
 */
export const HEAD_ELEMENTS: ReadonlySet<string> = new Set([
  'title',
  'base',
  'link',
  'meta',
  'style',
  'script',
  'noscript',
  'template',
]);

/** Space, tab, line feed, form feed, carriage return: each ends an entity. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Text gathered before it is collapsed and hashed: one regex and one hash call per 64 KB, not per piece. */
const BUFFER_CHARS = 65_536;

/** Collects main text in pieces of any size and hashes it with its whitespace collapsed. */
export class MainTextHash {
  readonly #hash: Hash = createHash('sha256');
  #started = false;
  #space = false;
  #pieces: string[] = [];
  #chars = 0;

  /** Adds the next piece of main text, as the page writes it (entities not decoded yet). */
  push(text: string): void {
    // Collapsing is the same over the joined pieces as piece by piece (a run split between two
    // pieces still becomes one space), so pieces are joined first: most are a few characters.
    this.#pieces.push(text);
    this.#chars += text.length;
    if (this.#chars >= BUFFER_CHARS) this.#flush(false);
  }

  /**
   * Decodes, collapses and hashes the buffer. Before the end, an entity must not be cut in two:
   * only the text up to the last whitespace goes (whitespace ends every entity).
   */
  #flush(end: boolean): void {
    let text = this.#pieces.join('');
    this.#pieces = [];
    this.#chars = 0;
    if (!end) {
      let cut = text.length - 1;
      while (cut >= 0 && !isSpace(text.charCodeAt(cut))) cut--;
      if (cut >= 0) {
        this.#pieces.push(text.slice(cut + 1));
        this.#chars = text.length - cut - 1;
        text = text.slice(0, cut + 1);
      }
    }
    // The text comes undecoded, as written: decoding once here is what the HTML tokenizer does
    // (the same legacy rules, `&amp` without its semicolon included), for a fraction of the time.
    const t = (text.includes('&') ? decodeHTML(text) : text).replace(NOT_ONE_SPACE, ' ');
    if (t === '' || t === ' ') {
      if (t === ' ') this.#space = true;
      return;
    }
    const lead = t.charCodeAt(0) === 32;
    const trail = t.charCodeAt(t.length - 1) === 32;
    const core = t.slice(lead ? 1 : 0, trail ? t.length - 1 : t.length);
    if (this.#started && (this.#space || lead)) this.#hash.update(' ');
    this.#hash.update(core);
    this.#started = true;
    this.#space = trail;
  }

  /** The fingerprint of the title and the main text (hex, 64 characters). */
  digest(title: string | undefined): string {
    this.#flush(true);
    // The title first, apart: moving words between the title and the body is a change.
    const all = createHash('sha256');
    all.update((title ?? '').replace(WHITESPACE, ' ').trim());
    all.update('\u0000');
    all.update(this.#hash.digest('hex'));
    return all.digest('hex');
  }
}

/**
 * The fingerprint of a title (decoded) and a main text as the page writes it (entities not
 * decoded): what {@link MainTextHash} gives for it in any pieces.
 */
export function mainTextFingerprint(title: string | undefined, text: string): string {
  const h = new MainTextHash();
  h.push(text);
  return h.digest(title);
}
