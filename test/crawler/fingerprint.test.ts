import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mainTextFingerprint } from '../../src/page/main-text.js';
import { PageMetaReader } from '../../src/page/page-meta.js';

// The main-text fingerprint a recrawl compares (src/page/main-text.ts says what counts).

function fingerprint(chunks: readonly string[]): string {
  const r = new PageMetaReader({ fingerprint: true });
  for (const c of chunks) r.write(c);
  r.end();
  return r.fingerprint()!;
}

function cut(text: string, points: readonly number[]): string[] {
  const sorted = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const p of [...sorted, text.length]) {
    out.push(text.slice(at, p));
    at = p;
  }
  return out;
}

const word = fc.stringMatching(/^[a-zA-Z0-9éü&<>"']{1,8}$/);
const esc = (w: string): string =>
  w.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');
const token = fc.stringMatching(/^[A-Za-z0-9+/=_-]{0,40}$/);
const space = fc.constantFrom(' ', '  ', '\n', '\t ', '\r\n  ', '&nbsp;', ' &#32;');

/** What may differ between two requests of an unchanged page: per-request markup around the same text. */
const noise = fc.record({
  csrf: token,
  nonce: token,
  stamp: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
  script: token,
  style: token,
  attr: token,
  comment: token,
});
type Noise = typeof noise extends fc.Arbitrary<infer T> ? T : never;

/** One rendering of `words` (the page's main text) with `n`'s noise and `spaces` between words. */
function render(
  title: string,
  words: readonly string[],
  n: Noise,
  spaces: readonly string[],
  wraps: readonly number[],
): string {
  const body = words
    .map((w, i) => {
      const sep = spaces[i % Math.max(1, spaces.length)] ?? ' ';
      const kind = wraps[i % Math.max(1, wraps.length)] ?? 0;
      const e = esc(w);
      // Markup around a word, never inside one: tags do not split text, but they do not join it either.
      const wrapped =
        kind === 1
          ? `<span class="w-${n.attr}">${e}</span>`
          : kind === 2
            ? `<a href="/x?t=${n.attr}">${e}</a>`
            : kind === 3
              ? `${e}<!-- ${n.comment} -->`
              : kind === 4
                ? `${e}<script>var t="${n.script}";</script>`
                : e;
      return i === 0 ? wrapped : `${sep}${wrapped}`;
    })
    .join('');
  return (
    `<!doctype html><html><head><title>${esc(title)}</title>` +
    `<meta name="csrf-token" content="${n.csrf}"><meta name="generated" content="${n.stamp.toISOString()}">` +
    `<script nonce="${n.nonce}">window.t=${n.stamp.getTime()}</script><style>.x{content:"${n.style}"}</style>` +
    `<!-- rendered ${n.stamp.toISOString()} --></head>` +
    `<body class="${n.attr}"><noscript>${n.comment}</noscript><template>${n.script}</template>` +
    `<form><input type="hidden" name="csrf" value="${n.csrf}"></form>` +
    `${body}<style>/*${n.style}*/</style></body></html>`
  );
}

const wordsArb = fc.array(word, { minLength: 1, maxLength: 30 });
const layout = fc.record({
  spaces: fc.array(space, { minLength: 1, maxLength: 5 }),
  wraps: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 5 }),
});

describe('the main-text fingerprint', () => {
  it('does not change with per-request markup, head changes, whitespace, entities or chunking', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        wordsArb,
        noise,
        noise,
        layout,
        layout,
        fc.array(fc.nat(), { maxLength: 10 }),
        (title, words, n1, n2, l1, l2, points) => {
          const a = render(title, words, n1, l1.spaces, l1.wraps);
          const b = render(title, words, n2, l2.spaces, l2.wraps);
          const fa = fingerprint([a]);
          expect(fingerprint(cut(b, points))).toBe(fa);
          expect(fa).toBe(mainTextFingerprint(title, words.map(esc).join(' ')));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('changes whenever the body text changes (a word changed, added or removed) or the title does', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        wordsArb,
        fc.nat(),
        word,
        fc.constantFrom('replace', 'insert', 'remove', 'title'),
        noise,
        layout,
        (title, words, at, w, edit, n, l) => {
          const i = at % words.length;
          const changed = [...words];
          let title2 = title;
          if (edit === 'replace') changed[i] = words[i] === w ? `${w}x` : w;
          else if (edit === 'insert') changed.splice(i, 0, w);
          else if (edit === 'remove' && words.length > 1) changed.splice(i, 1);
          else title2 = `${title}!`;
          const before = fingerprint([render(title, words, n, l.spaces, l.wraps)]);
          const after = fingerprint([render(title2, changed, n, l.spaces, l.wraps)]);
          expect(after).not.toBe(before);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads a page without <body> (or with an unclosed <head>) as a browser would', () => {
    const f = (html: string): string => fingerprint([html]);
    const text = mainTextFingerprint('T', 'Hello world');
    expect(f('<title>T</title><p>Hello <b>world</b>')).toBe(text);
    expect(f('<html><head><title>T</title><meta charset=utf-8><p>Hello world</p>')).toBe(text);
    expect(f('<html><head><title>T</title></head><body>Hello\n\n   world </body>')).toBe(text);
    expect(f('<title>T</title><div>Hello world</div>')).not.toBe(
      f('<title>T</title><div>Hello, world</div>'),
    );
  });

  it('is given only when asked for, and is the same for a real page in any chunks', () => {
    const r = new PageMetaReader();
    r.write('<title>x</title>');
    r.end();
    expect(r.fingerprint()).toBeUndefined();
    const dir = join(import.meta.dirname, 'fixtures/pages');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.html'))) {
      const text = readFileSync(join(dir, f), 'utf8');
      const whole = fingerprint([text]);
      expect(whole).toMatch(/^[0-9a-f]{64}$/);
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 30 }), (points) => {
          expect(fingerprint(cut(text, points))).toBe(whole);
        }),
        { numRuns: 20 },
      );
    }
  });
});
