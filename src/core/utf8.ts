/**
 * UTF-8 lengths of strings without Node's `Buffer`, so that the writer's engine also runs where
 * there is none (Deno, Bun, edge runtimes: the sitemap handler). Node keeps its native count.
 */

function countUtf8(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four bytes.
      n += 2;
      i++;
    } else n += 2; // three bytes (a lone surrogate becomes U+FFFD, also three)
  }
  return n;
}

/** The number of bytes `s` takes in UTF-8 (lone surrogates count as U+FFFD, as encoders write them). */
export const utf8Length: (s: string) => number =
  typeof globalThis.Buffer === 'function' ? (s) => Buffer.byteLength(s) : countUtf8;

/** The portable count, exported for the test that holds it equal to Node's. */
export const utf8LengthPortable: (s: string) => number = countUtf8;
