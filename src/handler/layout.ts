/**
 * The layout of a served set: which children it has, by source kind. An entries source is read
 * once per version to cut its files; a paged source needs only its counts; a file source names
 * its files itself.
 */
import { SitemapkitError } from '../core/errors.js';
import { MAX_URLS } from '../core/limits.js';
import { INDEX_CLOSE, indexItem, indexOpen } from '../writer/serialize.js';
import { normalizer } from './entries.js';
import { type Child, pass } from './generate.js';
import type { ResolvedHandlerOptions } from './options.js';

const NAME = /^[a-z0-9][a-z0-9_-]{0,99}$/;

function pad(n: number): string {
  return String(n).padStart(5, '0');
}

function badName(what: string, name: string): SitemapkitError {
  return new SitemapkitError(
    'ERR_OPTIONS',
    `${what} "${name}" cannot name a sitemap file: use 1–100 of a-z, 0-9, _ and -`,
  );
}

export async function computeLayout(o: ResolvedHandlerOptions): Promise<Child[]> {
  const s = o.source;
  let children: Child[];
  if (s.kind === 'entries') {
    const gen = pass(
      s.entries(),
      undefined,
      'xml',
      { o, normalize: normalizer(o, true), publicName: 'sitemap' },
      true,
    );
    let r = await gen.next();
    while (r.done !== true) r = await gen.next();
    children = r.value;
  } else if (s.kind === 'paged') {
    const p = s.paged;
    const sections =
      p.sections === undefined ? [''] : typeof p.sections === 'function' ? await p.sections() : p.sections;
    children = [];
    for (const section of sections) {
      if (section !== '' && !NAME.test(section)) throw badName('section', section);
      const count = await p.count(section);
      if (!Number.isInteger(count) || count < 0)
        throw new SitemapkitError(
          'ERR_INPUT',
          `count("${section}") of the paged source must be a whole number, got ${String(count)}`,
        );
      const pages = Math.ceil(count / o.maxUrlsPerFile);
      for (let index = 0; index < pages; index++) {
        const name = `sitemap-${section === '' ? '' : `${section}-`}${pad(index + 1)}`;
        children.push({ name, lastmod: undefined, page: { section, index } });
      }
    }
  } else {
    children = [];
    for (const f of await s.files.files()) {
      if (!NAME.test(f.name) || f.name === 'sitemap') throw badName('file', f.name);
      const child: Child = { name: f.name, lastmod: f.lastmod };
      if (f.version !== undefined) child.version = `${typeof f.version}:${String(f.version)}`;
      children.push(child);
    }
  }
  if (children.length > MAX_URLS) {
    throw new SitemapkitError(
      'ERR_LIMIT',
      `the set needs ${children.length} children, more than one index may list (${MAX_URLS})`,
      { hint: 'raise maxUrlsPerFile, or serve sections from separate handlers' },
    );
  }
  return children;
}

/** The index over the children. */
export function indexText(o: ResolvedHandlerOptions, children: readonly Child[]): string {
  let s = indexOpen(o.xslHref);
  for (const c of children) s += indexItem(`${o.prefix + c.name}.${o.format}`, c.lastmod);
  return s + INDEX_CLOSE;
}
