/**
 * The lastmod policy in a store build (issue 12): the writer's judgement (writer/lastmod-policy.ts)
 * of whether a set's lastmods can be trusted, made over the store's live URLs with the writer's
 * thresholds (at least 20 lastmods, all one value or all within 15 minutes of the build time).
 *
 * Only the lastmods the input gave are judged: the times the store stamps itself (the time an
 * import observed a change) are honest by construction, and a batch of changes observed by one
 * import shares one time, which must not read as "one value for every page".
 *
 * Under `drop` the verdict decides whether the set is published without lastmod; that outcome is
 * part of every file's bytes (build.ts puts it in the signature), so when it flips every file is
 * written again once, and a kept file never disagrees with the files written beside it.
 */
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import {
  LASTMOD_MIN_URLS,
  LASTMOD_NEAR_MS,
  type LastmodPolicy,
  type LastmodVerdict,
  lastmodFinding,
} from '../writer/lastmod-policy.js';
import type { StoreBackend } from './backend.js';

export function resolveStorePolicy(value: unknown): LastmodPolicy {
  const policy = value ?? 'warn';
  if (policy !== 'keep' && policy !== 'warn' && policy !== 'drop') {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `lastmodPolicy must be keep, warn or drop, not ${String(value)}`,
    );
  }
  return policy;
}

/**
 * Judges the store's input lastmods at `buildTime`; reports the writer's warning through
 * `onDiagnostic`; returns whether the set is to be published without lastmod.
 */
export async function judgeStoreLastmods(
  backend: StoreBackend,
  policy: LastmodPolicy,
  buildTime: Date,
  onDiagnostic: DiagnosticHandler | undefined,
): Promise<boolean> {
  if (policy === 'keep') return false;
  const s = await backend.inputLastmods(buildTime.getTime(), LASTMOD_NEAR_MS);
  if (s.count < LASTMOD_MIN_URLS || s.first === null) return false;
  const verdict: LastmodVerdict | undefined = s.same
    ? { kind: 'same', count: s.count, example: s.first }
    : s.near
      ? { kind: 'near', count: s.count, example: s.first }
      : undefined;
  if (verdict === undefined) return false;
  const drop = policy === 'drop';
  onDiagnostic?.(lastmodFinding(verdict, buildTime, drop));
  return drop;
}
