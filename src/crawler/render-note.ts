/**
 * What rendering changed on a page, as the state keeps it (the `rendered` column, JSON) and the
 * report shows it: the links found only in the rendered DOM ("JS-only links": a crawler that does
 * not run scripts never sees them) and a meta robots or canonical that differs between the raw and
 * the rendered HTML (search engines may read either). Pure: the answer in, the note out.
 */
import { type PageMeta, resolvePageBase } from '../page/page-meta.js';
import { pageCanonical, robotsDirectives } from '../page/verdict.js';
import type { PageResponse } from './fetch-page.js';

/** JS-only links kept per page (the count is complete). */
export const JS_ONLY_KEPT = 100;

/** The `rendered` column. */
export interface RenderNote {
  /** `yes`: read from the rendered DOM; `failed`: rendering failed twice (the raw HTML was read). */
  rendered: 'yes' | 'failed';
  /** Rendering failed: why. */
  error?: string;
  /** The time cap passed before the page's network was quiet: its DOM was read as it was. */
  capped?: boolean;
  /** Milliseconds the page took to render (both attempts when it failed). */
  ms?: number;
  /** Links (normalised) found only after rendering, at most {@link JS_ONLY_KEPT}. */
  jsOnly?: string[];
  jsOnlyCount?: number;
  /** `meta robots: index → noindex`, `canonical: /a → /b`: what differs between raw and rendered. */
  differences?: string[];
}

type Answered = Extract<PageResponse, { ok: true }>;

interface NoteRules {
  normalize(raw: string, base: string | undefined): string | undefined;
  metaAgents: readonly string[];
}

function links(url: string, meta: PageMeta, rules: NoteRules): string[] {
  const base = resolvePageBase(url, meta.baseHref);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const l of meta.links) {
    const n = rules.normalize(l.href, base);
    if (n === undefined || n === url || seen.has(n)) continue;
    seen.add(n);
    out.push(n);
  }
  return out;
}

function robotsText(res: Answered, meta: PageMeta, rules: NoteRules): string {
  const d = robotsDirectives(meta, res.headers.values('x-robots-tag'), rules.metaAgents);
  return `${d.noindex ? 'noindex' : 'index'}, ${d.nofollow ? 'nofollow' : 'follow'}`;
}

function canonicalText(url: string, res: Answered, meta: PageMeta): string {
  const c = pageCanonical(url, meta, res.headers.get('link'));
  if (c.kind === 'self' || c.kind === 'other') return c.url;
  if (c.kind === 'ignored') return `${c.href} (ignored)`;
  return '(none)';
}

/** The note of a fetched page (JSON for the state), or null when it was not rendered. */
export function renderNote(url: string, res: PageResponse, rules: NoteRules): string | null {
  if (!res.ok || res.render === undefined) return null;
  const r = res.render;
  if (!r.ok) return JSON.stringify({ rendered: 'failed', error: r.error, ms: r.ms } satisfies RenderNote);
  const note: RenderNote = { rendered: 'yes', ms: r.ms };
  if (r.capped) note.capped = true;
  const rendered = res.meta;
  if (rendered === undefined) return JSON.stringify(note);
  const before = new Set(links(url, r.rawMeta, rules));
  const only = links(url, rendered, rules).filter((l) => !before.has(l));
  if (only.length > 0) {
    note.jsOnly = only.slice(0, JS_ONLY_KEPT);
    note.jsOnlyCount = only.length;
  }
  const differences: string[] = [];
  const robotsRaw = robotsText(res, r.rawMeta, rules);
  const robotsRendered = robotsText(res, rendered, rules);
  if (robotsRaw !== robotsRendered) differences.push(`meta robots: ${robotsRaw} → ${robotsRendered}`);
  const canonicalRaw = canonicalText(url, res, r.rawMeta);
  const canonicalRendered = canonicalText(url, res, rendered);
  if (canonicalRaw !== canonicalRendered) {
    differences.push(`canonical: ${canonicalRaw} → ${canonicalRendered}`);
  }
  if (differences.length > 0) note.differences = differences;
  return JSON.stringify(note);
}

/** The note as stored, or undefined for a page not rendered (or a note this release cannot read). */
export function readRenderNote(json: string | null): RenderNote | undefined {
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as RenderNote;
  } catch {
    return undefined;
  }
}
