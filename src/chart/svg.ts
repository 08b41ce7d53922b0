/**
 * Inline SVG charts for the HTML report: pure functions from figures to markup, no script and no
 * network. Every chart has a text alternative (`aria-label`) and a tooltip per mark (`<title>`).
 */

/** Escapes text for HTML and SVG content and attribute values. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}

function n(x: number): string {
  return x.toLocaleString('en-US');
}

/** Longest label drawn; longer ones are shortened in the middle. */
const LABEL_CHARS = 30;
/** A safe width per character of the 12 px labels (wider than the average, so that none overflows). */
const CHAR_PX = 7.4;

/**
 * Shortens a label in the middle, keeping its start and its end (for a path, its last segment):
 * what tells two sitemaps apart is usually their file name, and the start says where they are.
 */
export function shorten(s: string, max: number = LABEL_CHARS): string {
  if (s.length <= max) return s;
  const slash = s.lastIndexOf('/', s.length - 2);
  const last = slash === -1 ? '' : s.slice(slash);
  const tail =
    last.length > 0 && last.length <= max - 6 ? last : s.slice(s.length - Math.ceil((max - 1) / 2));
  return `${s.slice(0, max - 1 - tail.length)}…${tail}`;
}

export interface Bar {
  label: string;
  value: number;
  color: string;
  /** Tooltip; defaults to `label: value`. */
  title?: string;
}

/** Horizontal bars, one row per item, labels on the left and values on the right. */
export function barChart(bars: readonly Bar[], options: { label: string; width?: number }): string {
  const width = options.width ?? 560;
  const row = 22;
  const labels = bars.map((b) => shorten(b.label));
  // The label column fits the longest label: text anchored at its right edge must not run past
  // the left edge of the drawing, where it would be cut.
  const longest = Math.max(0, ...labels.map((l) => l.length));
  const labelWidth = Math.ceil(longest * CHAR_PX) + 12;
  const valueWidth = 70;
  const plot = width - labelWidth - valueWidth;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = Math.max(row, bars.length * row) + 4;
  const rows = bars.map((b, i) => {
    const y = i * row + 2;
    const w = b.value === 0 ? 0 : Math.max(2, Math.round((b.value / max) * plot));
    const title = esc(b.title ?? `${b.label}: ${n(b.value)}`);
    return `<g class="bar"><title>${title}</title><text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${esc(labels[i]!)}</text><rect x="${labelWidth}" y="${y + 3}" width="${w}" height="${row - 8}" rx="2" fill="${b.color}"/><text x="${labelWidth + w + 6}" y="${y + 15}" class="value">${n(b.value)}</text></g>`;
  });
  return `<svg class="chart" role="img" aria-label="${esc(options.label)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${rows.join('')}</svg>`;
}

export interface Column {
  label: string;
  value: number;
}

/** Counts spread wider than this (largest / smallest non-zero) are drawn on a logarithmic scale. */
const LOG_SPREAD = 20;

/**
 * The height (0 to 1) of each value: linear, or logarithmic when the values spread so wide that a
 * linear scale would flatten all but the largest to the minimum height (a site whose pages were
 * almost all modified in one month).
 */
export function columnScale(values: readonly number[]): { log: boolean; of: (v: number) => number } {
  const max = Math.max(1, ...values);
  const nonZero = values.filter((v) => v > 0);
  const log = nonZero.length > 1 && max / Math.min(...nonZero) > LOG_SPREAD;
  const top = Math.log10(1 + max);
  return {
    log,
    of: (v) => (v <= 0 ? 0 : log ? Math.log10(1 + v) / top : v / max),
  };
}

/**
 * Vertical columns along a time axis, with a few labels below and the scale on the left (0 and
 * the maximum; the powers of ten on a logarithmic scale).
 */
export function columnChart(
  columns: readonly Column[],
  options: { label: string; color: string; width?: number },
): string {
  const width = options.width ?? 560;
  const height = 200;
  const left = 52;
  const bottom = 24;
  const plotW = width - left - 8;
  const plotH = height - bottom - 10;
  const max = Math.max(1, ...columns.map((c) => c.value));
  const scale = columnScale(columns.map((c) => c.value));
  const step = columns.length === 0 ? plotW : plotW / columns.length;
  const gap = step > 4 ? 1 : 0;
  const every = Math.max(1, Math.ceil(columns.length / 8));
  const marks = columns.map((c, i) => {
    // A non-zero count stays visible (2 px at least).
    const h = c.value === 0 ? 0 : Math.max(2, scale.of(c.value) * plotH);
    const x = left + i * step;
    const label =
      i % every === 0
        ? `<text x="${(x + step / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle">${esc(c.label)}</text>`
        : '';
    return `<g class="col"><title>${esc(`${c.label}: ${n(c.value)}`)}</title><rect x="${(x + gap / 2).toFixed(1)}" y="${(10 + plotH - h).toFixed(1)}" width="${Math.max(0.5, step - gap).toFixed(1)}" height="${h.toFixed(1)}" fill="${options.color}"/>${label}</g>`;
  });
  const ticks: string[] = [];
  if (scale.log) {
    for (let p = 10; p < max; p *= 10) {
      const y = 10 + plotH - scale.of(p) * plotH;
      // A tick just under the maximum's label would print over it.
      if (y < 26) break;
      ticks.push(
        `<line x1="${left}" y1="${y.toFixed(1)}" x2="${width - 8}" y2="${y.toFixed(1)}" class="grid"/><text x="${left - 6}" y="${y.toFixed(1)}" dy="4" text-anchor="end">${n(p)}</text>`,
      );
    }
  }
  const axis = `<line x1="${left}" y1="${10 + plotH}" x2="${width - 8}" y2="${10 + plotH}" class="axis"/><text x="${left - 6}" y="16" text-anchor="end">${n(max)}</text><text x="${left - 6}" y="${10 + plotH}" text-anchor="end">0</text>${ticks.join('')}`;
  const label = scale.log ? `${options.label} (logarithmic scale)` : options.label;
  return `<svg class="chart" role="img" aria-label="${esc(label)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${axis}${marks.join('')}</svg>`;
}

export interface Slice {
  label: string;
  value: number;
  color: string;
}

/** A ring split by value, with its legend beside it. */
export function donutChart(slices: readonly Slice[], options: { label: string }): string {
  const r = 60;
  const c = 2 * Math.PI * r;
  const total = slices.reduce((s, x) => s + x.value, 0);
  let offset = 0;
  const rings = slices
    .filter((s) => s.value > 0)
    .map((s) => {
      const len = (s.value / total) * c;
      const ring = `<circle r="${r}" cx="80" cy="80" fill="none" stroke="${s.color}" stroke-width="26" stroke-dasharray="${len.toFixed(2)} ${(c - len).toFixed(2)}" stroke-dashoffset="${(-offset).toFixed(2)}" transform="rotate(-90 80 80)"><title>${esc(`${s.label}: ${n(s.value)}`)}</title></circle>`;
      offset += len;
      return ring;
    });
  const empty =
    total === 0 ? `<circle r="${r}" cx="80" cy="80" fill="none" stroke="#d0d7de" stroke-width="26"/>` : '';
  const legend = slices.map(
    (s, i) =>
      `<g><rect x="180" y="${40 + i * 28}" width="14" height="14" rx="2" fill="${s.color}"/><text x="200" y="${52 + i * 28}">${esc(s.label)}: ${n(s.value)}</text></g>`,
  );
  return `<svg class="chart" role="img" aria-label="${esc(options.label)}" viewBox="0 0 380 160" width="380" height="160" xmlns="http://www.w3.org/2000/svg">${empty}${rings.join('')}<text x="80" y="86" text-anchor="middle" class="total">${n(total)}</text>${legend.join('')}</svg>`;
}
