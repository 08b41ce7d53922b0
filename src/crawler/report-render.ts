/**
 * The crawl report's "Rendering" section (crawl `render`): per rendered page, the links found only
 * after its scripts ran (JS-only links) and the meta robots or canonical that differ between its
 * raw and rendered HTML, and the pages whose rendering failed. Pure: rows in, HTML out.
 */
import { esc } from '../chart/svg.js';
import type { UrlRecord } from './records.js';
import { type RenderNote, readRenderNote } from './render-note.js';

/** Rendered pages shown in the section at most; urls.jsonl and urls.csv hold all of them. */
export const RENDER_ROWS = 200;
/** JS-only links shown per page. */
const LINKS_SHOWN = 10;

/** What the report's pass over the URLs gathers about rendering. */
export interface RenderDigest {
  /** Pages rendered (`yes`), and whose rendering failed. */
  rendered: number;
  failed: number;
  /** Pages with JS-only links, and with raw/rendered differences. */
  withJsOnly: number;
  withDifferences: number;
  /** The first pages with something to show (at most {@link RENDER_ROWS}). */
  rows: Array<{ url: string; note: RenderNote }>;
}

export function newRenderDigest(): RenderDigest {
  return { rendered: 0, failed: 0, withJsOnly: 0, withDifferences: 0, rows: [] };
}

/** Counts one URL's rendering into the digest. */
export function addToRenderDigest(d: RenderDigest, r: Pick<UrlRecord, 'url' | 'rendered'>): void {
  const note = readRenderNote(r.rendered);
  if (note === undefined) return;
  if (note.rendered === 'failed') d.failed++;
  else d.rendered++;
  if ((note.jsOnlyCount ?? 0) > 0) d.withJsOnly++;
  if ((note.differences?.length ?? 0) > 0) d.withDifferences++;
  const worth = note.rendered === 'failed' || (note.jsOnlyCount ?? 0) > 0 || note.differences !== undefined;
  if (worth && d.rows.length < RENDER_ROWS) d.rows.push({ url: r.url, note });
}

/** The `rendered` column of urls.csv / urls.jsonl: `yes`, `failed`, or null (not rendered). */
export function renderedCell(json: string | null): string | null {
  return readRenderNote(json)?.rendered ?? null;
}

/** The JS-only links of a page (urls.jsonl: an array; urls.csv: separated by spaces). */
export function jsOnlyLinks(json: string | null): string[] | null {
  const n = readRenderNote(json);
  return n === undefined || n.rendered !== 'yes' ? null : (n.jsOnly ?? []);
}

/** What differs between the raw and the rendered HTML, or why rendering failed. */
export function renderDifferences(json: string | null): string | null {
  const n = readRenderNote(json);
  if (n === undefined) return null;
  if (n.rendered === 'failed') return `rendering failed: ${n.error ?? 'unknown'}`;
  return n.differences === undefined ? null : n.differences.join('; ');
}

function a(url: string): string {
  return `<a href="${esc(url)}">${esc(url)}</a>`;
}

/** The section, or '' when the crawl rendered nothing. */
export function renderSection(d: RenderDigest): string {
  if (d.rendered + d.failed === 0) return '';
  const rows = d.rows
    .map(({ url, note }) => {
      const links = (note.jsOnly ?? []).slice(0, LINKS_SHOWN).map((l) => `<li>${a(l)}</li>`);
      const count = note.jsOnlyCount ?? 0;
      if (count > links.length) links.push(`<li>… ${count - links.length} more</li>`);
      const diff =
        note.rendered === 'failed'
          ? `<b>rendering failed</b>: ${esc(note.error ?? '')}`
          : (note.differences ?? []).map(esc).join('<br>');
      return `<tr><td>${a(url)}</td><td>${count}</td><td><ul>${links.join('')}</ul></td><td>${diff}</td></tr>`;
    })
    .join('');
  const shown = d.rows.length;
  const total = d.failed + Math.max(d.withJsOnly, d.withDifferences);
  return `
<h2 id="rendering">Rendering</h2>
<p>${d.rendered} pages rendered in Chromium${d.failed > 0 ? `, ${d.failed} failed twice (recorded as errors)` : ''}: ${d.withJsOnly} with links found only after rendering (JS-only: a crawler that runs no script never sees them), ${d.withDifferences} whose meta robots or canonical differ between the raw and the rendered HTML (search engines may read either).</p>
${
  shown === 0
    ? '<p>Rendering found nothing the raw HTML did not show.</p>'
    : `<table class="list" id="render-table"><tr><th>page</th><th>JS-only links</th><th>first of them</th><th>raw → rendered</th></tr>${rows}</table>${shown < total ? `<p class="more">The first ${shown}; urls.jsonl lists every page.</p>` : ''}`
}`;
}
