/**
 * HTTP semantics of the handler, pure: the encoding a request accepts, conditional requests, and
 * the headers of every answer.
 */

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The best encoding `Accept-Encoding` allows, Brotli first when the handler has it (RFC 9110
 * §12.5.3: `q=0` refuses, `*` stands for every coding not named, no header means any), or `null`
 * when the header refuses every coding the handler has, `identity` included (`identity;q=0`, or
 * `*;q=0` without `identity` named): the answer is then a 406.
 */
export function chooseEncoding(header: string | null, brotli: boolean): Encoding | null {
  if (header === null) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding === '') continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m !== null) weight = Number(m[1]);
    }
    q.set(coding.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weight = (c: string): number => q.get(c) ?? q.get('*') ?? 0;
  const br = brotli ? weight('br') : 0;
  const gz = Math.max(weight('gzip'), q.get('x-gzip') ?? 0);
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  // Unnamed, identity is acceptable even under `*;q=0` only when named: RFC 9110 §12.5.3.
  const identity = q.get('identity') ?? (q.get('*') === 0 ? 0 : 1);
  return identity > 0 ? 'identity' : null;
}

/** The 406's sentence: what was refused and what to send instead. */
export function refusedEncodings(header: string, brotli: boolean): string {
  return `Accept-Encoding "${header}" refuses every coding this server sends (${brotli ? 'br, ' : ''}gzip, identity): accept one of them`;
}

/** Whether the client's copy is current: `If-None-Match` first, `If-Modified-Since` only without it. */
export function notModified(
  header: (name: string) => string | null,
  etag: string,
  lastModified: Date,
): boolean {
  const inm = header('if-none-match');
  if (inm !== null) {
    if (inm.trim() === '*') return true;
    // Weak comparison (RFC 9110 §13.1.2): W/ is ignored on both sides.
    const bare = etag.replace(/^W\//, '');
    return inm.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
  }
  const ims = header('if-modified-since');
  if (ims === null) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  xml: 'application/xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  xsl: 'text/xsl; charset=utf-8',
};
