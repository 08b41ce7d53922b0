const SITEMAP_LINE = /^\s*sitemap\s*:\s*(\S+)\s*$/i;

/**
 * Adds or replaces the `Sitemap:` lines for our entry points. Lines naming one of `replace` (this
 * output's previous entry points) or `add` are dropped, then `add` is appended; every other line,
 * comment and line ending stays exactly as it was.
 */
export function updateRobotsText(text: string, add: readonly string[], replace: readonly string[]): string {
  const drop = new Set([...add, ...replace]);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text === '' ? [] : text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const kept = lines.filter((line) => {
    const m = SITEMAP_LINE.exec(line);
    return m === null || !drop.has(m[1]!);
  });
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === '' && add.length > 0) kept.pop();
  const out = [...kept];
  if (add.length > 0 && out.length > 0) out.push('');
  for (const url of add) out.push(`Sitemap: ${url}`);
  return out.length === 0 ? '' : out.join(eol) + eol;
}
