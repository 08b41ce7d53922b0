/**
 * robots.txt is matched octet by octet (RFC 9309 §2.2.2 counts "octets"; google/robotstxt works on
 * bytes). Internally every body, pattern and URL path is a "byte string": one UTF-16 code unit
 * per octet (0–255), so `length` is the octet count and comparisons are byte comparisons.
 */

const ASCII = /^[\x00-\x7f]*$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** UTF-8 encodes a string (or takes raw bytes) and returns one code unit per octet. */
export function toByteString(input: string | Uint8Array): string {
  if (typeof input === 'string') {
    if (ASCII.test(input)) return input;
    input = encoder.encode(input);
  }
  let out = '';
  const chunk = 8192;
  for (let i = 0; i < input.length; i += chunk) {
    out += String.fromCharCode(...input.subarray(i, i + chunk));
  }
  return out;
}

/** Decodes a byte string as UTF-8 for people (invalid sequences become U+FFFD). */
export function fromByteString(s: string): string {
  if (ASCII.test(s)) return s;
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return decoder.decode(bytes);
}
