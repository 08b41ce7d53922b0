/**
 * `Retry-After` (RFC 9110 §10.2.3) as a delay in milliseconds: delta-seconds or an HTTP-date.
 * Undefined when absent or unreadable; a date in the past gives 0.
 */
export function retryAfterMs(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
