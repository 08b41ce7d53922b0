/**
 * Entries of a source as the handler writes them: normalised with the location rule, invalid ones
 * left out with a finding each. Shared by the layout pass and by the generation of a file, so both
 * cut the same files from the same entries.
 */
import type { SitemapEntry, SitemapEntryInput } from '../core/entry.js';
import { normalizeEntry } from '../core/normalize.js';
import type { ResolvedHandlerOptions } from './options.js';
import type { EntryList } from './types.js';

/** A function that normalises one input (`undefined`: left out, its findings reported when `report`). */
export type Normalizer = (input: SitemapEntryInput, where: string) => SitemapEntry | undefined;

export function normalizer(o: ResolvedHandlerOptions, report: boolean): Normalizer {
  const options = { scope: { prefix: o.prefix, allowHosts: o.allowHosts } };
  const onDiagnostic = report ? o.onDiagnostic : undefined;
  return (input, where) => {
    const r = normalizeEntry(input, options);
    if (r.ok) {
      if (onDiagnostic !== undefined) {
        for (const w of r.warnings)
          onDiagnostic({
            code: w.code,
            severity: 'warning',
            message: w.message,
            field: w.field,
            sitemap: where,
          });
      }
      return r.entry;
    }
    if (onDiagnostic !== undefined) {
      const loc = (input as { loc?: unknown } | null)?.loc;
      for (const e of r.errors) {
        onDiagnostic({
          code: e.code,
          severity: 'error',
          message: `${e.message}; the entry is left out`,
          field: e.field,
          sitemap: where,
          ...(typeof loc === 'string' ? { url: loc } : {}),
        });
      }
    }
    return undefined;
  };
}

/** Iterates any entry list; a sync list is read without a microtask per entry. */
export async function* each(list: EntryList): AsyncGenerator<SitemapEntryInput, void, undefined> {
  const l = await list;
  if (Symbol.iterator in l) yield* l as Iterable<SitemapEntryInput>;
  else yield* l as AsyncIterable<SitemapEntryInput>;
}

/** An entry without its section (a page or a named file is one child whatever the entry says). */
export function withoutSection(e: SitemapEntry): SitemapEntry {
  if (e.section === undefined) return e;
  const { section: _, ...rest } = e;
  return rest;
}
