/** Reads generated HTML back the way a browser would (htmlparser2 decodes entities), for assertions. */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Parser } from 'htmlparser2';

export interface Anchor {
  href: string;
  text: string;
  rel: string | undefined;
  /** The class of the closest list (`links`, `pages`) or '' for navigation links. */
  list: string;
}

export interface ParsedPage {
  title: string;
  h1: string;
  anchors: Anchor[];
  /** `start` of `<ol class="links">`, when the page has one. */
  start: number | undefined;
  /** Every tag name seen, to prove that nothing like `<script>` slipped through. */
  tags: Set<string>;
  /** `datetime` values of `<time>` elements. */
  times: string[];
}

export function parsePage(html: string): ParsedPage {
  const page: ParsedPage = { title: '', h1: '', anchors: [], start: undefined, tags: new Set(), times: [] };
  const lists: string[] = [];
  let anchor: Anchor | undefined;
  let inTitle = false;
  let inH1 = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        page.tags.add(name);
        if (name === 'ol' || name === 'ul') {
          lists.push(attribs['class'] ?? '');
          if (attribs['class'] === 'links' && attribs['start'] !== undefined)
            page.start = Number(attribs['start']);
        }
        if (name === 'a')
          anchor = { href: attribs['href'] ?? '', text: '', rel: attribs['rel'], list: lists.at(-1) ?? '' };
        if (name === 'title') inTitle = true;
        if (name === 'h1') inH1 = true;
        if (name === 'time' && attribs['datetime'] !== undefined) page.times.push(attribs['datetime']);
      },
      ontext(text) {
        if (anchor !== undefined) anchor.text += text;
        if (inTitle) page.title += text;
        if (inH1) page.h1 += text;
      },
      onclosetag(name) {
        if (name === 'ol' || name === 'ul') lists.pop();
        if (name === 'a' && anchor !== undefined) {
          page.anchors.push(anchor);
          anchor = undefined;
        }
        if (name === 'title') inTitle = false;
        if (name === 'h1') inH1 = false;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return page;
}

export async function readPage(dir: string, path: string): Promise<ParsedPage> {
  return parsePage(await readFile(join(dir, path), 'utf8'));
}

/** The site links of a page (its `<ol class="links">`), in order. */
export function siteLinks(page: ParsedPage): Anchor[] {
  return page.anchors.filter((a) => a.list === 'links');
}

/** Links to other files of the site map (lists of pages, prev/next, breadcrumb). */
export function mapLinks(page: ParsedPage): Anchor[] {
  return page.anchors.filter((a) => a.list !== 'links' && !/^https?:/.test(a.href));
}

const VNU_JAR = fileURLToPath(new URL('../../node_modules/vnu-jar/build/dist/vnu.jar', import.meta.url));

export interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  message: string;
  lastLine?: number;
}

/**
 * Checks HTML files with the W3C Nu HTML Checker (vnu.jar, the validator behind validator.w3.org/nu)
 * and returns its errors and warnings. One Java start for all files: it takes about two seconds.
 */
export async function validateHtml(files: readonly string[]): Promise<VnuMessage[]> {
  const { stdout, stderr } = await promisify(execFile)(
    'java',
    ['-jar', VNU_JAR, '--format', 'json', '--exit-zero-always', ...files],
    { maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: unknown) => {
    throw new Error(`could not run the Nu HTML Checker (java -jar ${VNU_JAR}): ${String(error)}`);
  });
  // vnu writes its JSON report to stderr.
  const report = JSON.parse(stderr || stdout) as { messages: VnuMessage[] };
  return report.messages.filter(
    (m) => m.type === 'error' || m.subType === 'warning' || m.type === 'non-document-error',
  );
}
