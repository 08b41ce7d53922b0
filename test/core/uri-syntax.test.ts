import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { httpUriSyntaxProblem } from '../../src/core/uri-syntax.js';
import { toStrictUri, toUri } from '../../src/core/url.js';

// Issue 11, defect 13: each of these is repaired by WHATWG URL into another, valid-looking URL.
const BROKEN: Array<[string, string, RegExp]> = [
  ['one slash', 'http:/www.example.com/a', /with \/\/ and the host/],
  ['no slash', 'http:www.example.com/b', /with \/\/ and the host/],
  ['backslashes', 'http:\\\\www.example.com\\c', /backslash/],
  ['backslash in the path', 'https://www.example.com/a\\b', /backslash/],
  ['three slashes', 'https:///www.example.com/g', /no host name/],
  ['a TAB in the host', 'https://www.exa\tmple.com/', /a TAB/],
  ['a TAB in the path', 'https://www.example.com/a\tb', /a TAB/],
  ['a line break in the path', 'https://www.example.com/a\nb', /a line break/],
  ['a CR in the host', 'https://www.example\r.com/', /a line break/],
  ['two URLs on two lines', 'https://www.example.com/a\nhttps://www.example.com/b', /a line break/],
  ['two URLs on one line', 'https://www.example.com/a https://www.example.com/b', /two URLs/],
  ['an empty label', 'http://.example.com/', /empty label/],
  ['two dots', 'http://www..example.com/', /empty label/],
  ['an empty host before the port', 'http://:8080/x', /no host name/],
  ['an empty @', 'http://@www.example.com/', /user information/],
  ['credentials', 'https://user:pw@www.example.com/', /user information/],
  ['an underscore in the host', 'https://my_host.example.com/', /"_" in the host/],
  ['a percent in the host', 'https://ex%61mple.com/', /"%" in the host/],
  ['a leading hyphen', 'https://-example.com/', /hyphen/],
  ['IPv4 shorthand', 'http://1.2.3/', /IPv4/],
  ['IPv4 in one number', 'http://3232235777/', /IPv4/],
  ['IPv4 in hex', 'http://0x7f.0.0.1/', /IPv4/],
  ['IPv4 with a leading zero', 'http://127.0.0.01/', /IPv4/],
  ['IPv4 with a trailing dot', 'http://127.0.0.1./', /IPv4/],
  ['an unclosed IPv6 literal', 'http://[::1/', /never closes/],
  ['a port that is not a number', 'http://www.example.com:80a/', /port/],
  ['a stray %', 'https://www.example.com/100%-sure', /not followed by two hex digits/],
  ['a soft hyphen in an IDN host', 'https://bü\u00adcher.example/', /invisible/],
];

const ACCEPTED: Array<[string, string, string]> = [
  ['plain', 'https://www.example.com/a?b=c#d', 'https://www.example.com/a?b=c#d'],
  ['no path (normal form adds /)', 'http://example.com', 'http://example.com/'],
  ['upper-case scheme and host', 'HTTP://WWW.Example.COM/A', 'http://www.example.com/A'],
  ['an IDN host in Unicode', 'https://bücher.example/straße', 'https://xn--bcher-kva.example/stra%C3%9Fe'],
  ['an ideographic full stop', 'https://例え。テスト/', 'https://xn--r8jz45g.xn--zckzah/'],
  ['raw spaces in the path', 'https://example.com/a b', 'https://example.com/a%20b'],
  ['raw non-ASCII in the query', 'https://example.com/?q=ä', 'https://example.com/?q=%C3%A4'],
  ['an IPv4 address', 'http://192.168.0.1:8080/x', 'http://192.168.0.1:8080/x'],
  ['an IPv6 literal', 'http://[2001:DB8::1]:8080/', 'http://[2001:db8::1]:8080/'],
  ['a trailing dot (absolute DNS name)', 'https://example.com./x', 'https://example.com./x'],
  ['an empty port', 'https://example.com:/x', 'https://example.com/x'],
  ['the default port', 'https://example.com:443/x', 'https://example.com/x'],
  ['dot segments', 'https://example.com/a/../b', 'https://example.com/b'],
  ['percent-encoding', 'https://example.com/a%2Fb%20c', 'https://example.com/a%2Fb%20c'],
  ['digits in a label', 'https://123.example.com/', 'https://123.example.com/'],
];

describe('the strict syntax of http(s) URLs as written (RFC 3986, RFC 9110 §4.2, RFC 1123)', () => {
  it.each(BROKEN)('%s: %j is url-invalid, with the text in the message and as url', (_, raw, why) => {
    expect(httpUriSyntaxProblem(raw)).toMatch(why);
    const r = toStrictUri(raw);
    expect(r).toMatchObject({ ok: false, code: 'url-invalid', url: raw.trim() });
    // The text as written, control characters escaped so that the message stays one line.
    const shown = raw.trim().replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
    if (!r.ok) expect(r.message.startsWith(`"${shown.slice(0, 20)}`)).toBe(true);
    if (!r.ok) expect(r.message).not.toMatch(/[\t\n\r]/);
  });

  it('the lenient rule repairs several of them silently (the defect this check exists for)', () => {
    expect(toUri('http:/www.example.com/a')).toEqual({ ok: true, url: 'http://www.example.com/a' });
    expect(toUri('http:\\\\www.example.com\\c')).toEqual({ ok: true, url: 'http://www.example.com/c' });
    expect(toUri('https:///www.example.com/g')).toEqual({ ok: true, url: 'https://www.example.com/g' });
    expect(toUri('https://www.exa\tmple.com/')).toEqual({ ok: true, url: 'https://www.example.com/' });
  });

  it.each(ACCEPTED)('%s: %j is accepted and normalised to %j', (_, raw, normal) => {
    expect(httpUriSyntaxProblem(raw)).toBeUndefined();
    expect(toStrictUri(raw)).toEqual({ ok: true, url: normal });
  });

  it('leaves other schemes and relative URLs to the URL rule, naming the URL', () => {
    expect(httpUriSyntaxProblem('ftp:/x')).toBeUndefined();
    expect(toStrictUri('ftp://example.com/f')).toMatchObject({
      code: 'url-scheme',
      url: 'ftp://example.com/f',
    });
    expect(toStrictUri('/page')).toMatchObject({ code: 'url-invalid', url: '/page' });
    const long = `https://example.com/${'a'.repeat(2100)}`;
    expect(toStrictUri(long)).toMatchObject({ code: 'url-too-long', url: long });
  });

  it('everything it accepts, WHATWG URL serialises without repairing host or path (property)', () => {
    const hostPart = fc.constantFrom(
      'example',
      'EXAMPLE',
      'www',
      'a-b',
      '-a',
      'a_b',
      '',
      'bücher',
      'x\u00ady',
      '1',
      '255',
      '256',
      '0x7f',
      '01',
      'ex%41',
      'a\tb',
      'a b',
    );
    const host = fc.array(hostPart, { minLength: 1, maxLength: 4 }).map((l) => l.join('.'));
    const port = fc.constantFrom('', ':', ':80', ':443', ':8080', ':x', ':65536');
    const tailChar = fc.constantFrom(
      ...'abcXYZ019-._~!$&\'()*+,;=:@/?#%[] éü\\\t\n"<>{}|^`'.split(''),
      '%20',
      '%2F',
      '%C3%A4',
      '/./',
      '/../',
      ' http://other.example/',
    );
    const tail = fc.array(tailChar, { maxLength: 12 }).map((a) => a.join(''));
    const prefix = fc.constantFrom(
      'http://',
      'https://',
      'HTTP://',
      'http:/',
      'http:',
      'https:///',
      'http:\\\\',
    );
    fc.assert(
      fc.property(prefix, host, port, tail, (p, h, o, t) => {
        // Values are trimmed before they are judged (XML blanks around a loc are not part of it).
        const raw = `${p}${h}${o}/${t}`.trim();
        if (httpUriSyntaxProblem(raw) !== undefined) return;
        const r = toStrictUri(raw);
        if (!r.ok) {
          // Only the WHATWG-level refusals remain (a host IDNA refuses, a port out of range).
          expect(['url-invalid', 'url-too-short']).toContain(r.code);
          return;
        }
        expect(sameUri(raw, r.url), `${JSON.stringify(raw)} → ${r.url}`).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});

/**
 * Whether `normal` is `raw` in normal form and nothing else: same scheme, same host (case and
 * IDNA aside), same port (default aside), and the same path, query and fragment bytes once
 * percent-decoded (dot segments removed, an empty path read as /).
 */
function sameUri(raw: string, normal: string): boolean {
  const m = /^([^:/?#]+):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/s.exec(raw);
  if (m === null) return false;
  const [, scheme, authority, path, query = '', fragment = ''] = m;
  const u = new URL(normal);
  if (u.protocol !== `${scheme!.toLowerCase()}:`) return false;
  const colon = authority!.startsWith('[') ? authority!.indexOf(']') + 1 : authority!.indexOf(':');
  const host = colon <= 0 || colon >= authority!.length ? authority! : authority!.slice(0, colon);
  const port = colon <= 0 || colon >= authority!.length ? '' : authority!.slice(colon + 1);
  const wantPort = port === '' || port === (u.protocol === 'https:' ? '443' : '80') ? '' : port;
  if (u.port !== wantPort) return false;
  const asciiHost = /^[\x00-\x7f]*$/.test(host) ? host.toLowerCase().replace(/\.$/, '') : undefined;
  if (asciiHost !== undefined && u.hostname.replace(/\.$/, '') !== asciiHost && !host.startsWith('['))
    return false;
  if (host.startsWith('[') && new URL(`http://${host}/`).hostname !== u.hostname) return false;
  const wantPath = removeDotSegments(path === '' ? '/' : path!);
  return (
    bytes(wantPath) === bytes(u.pathname) &&
    bytes(query === '?' ? '' : query) === bytes(u.search) &&
    bytes(fragment === '#' ? '' : fragment) === bytes(u.hash)
  );
}

/** Percent-decoded UTF-8 bytes as a hex string (raw characters encoded, %XX taken as bytes). */
function bytes(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%' && /^[0-9a-f]{2}$/i.test(s.slice(i + 1, i + 3))) {
      out += s.slice(i + 1, i + 3).toLowerCase();
      i += 2;
    } else {
      out += Buffer.from(s[i]!, 'utf8').toString('hex');
    }
  }
  return out;
}

/** RFC 3986 §5.2.4. */
function removeDotSegments(path: string): string {
  const out: string[] = [];
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const last = i === segments.length - 1;
    if (s === '.' || s === '..') {
      if (s === '..' && out.length > 1) out.pop();
      if (last) out.push('');
    } else out.push(s);
  }
  return out.join('/');
}
