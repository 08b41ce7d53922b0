/**
 * Starts test/support/timed-site.mjs in its own process (so that the test process's work never
 * bunches the arrivals it stamps) and judges its arrivals: seven requests are a burst only when
 * they must lie within one second, however each lies between the last moment the server was seen
 * running and the moment it read the request.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SITE = fileURLToPath(new URL('./timed-site.mjs', import.meta.url));

export interface Arrival {
  /** When the server read the request (ms since the epoch). */
  at: number;
  /** The last moment before it that the server was seen running. */
  after: number;
}

export interface TimedSite {
  origin: string;
  arrivals(): Promise<Arrival[]>;
  close(): void;
}

/** `what`: the number of pages of the linked site, or `'app'` for the page whose script calls six APIs. */
export async function startTimedSite(what: number | 'app'): Promise<TimedSite> {
  const child: ChildProcess = spawn(process.execPath, [SITE, String(what)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').once('data', resolve);
    child.once('error', reject);
  });
  const origin = `http://127.0.0.1:${/PORT=(\d+)/.exec(line)![1]}`;
  return {
    origin,
    arrivals: async () => (await (await fetch(`${origin}/__arrivals`)).json()) as Arrival[],
    close: () => child.kill(),
  };
}

/** The runs of seven arrivals that must lie within one second (none, when a rate of 5 a second held with a slack of one). */
export function bursts(arrivals: readonly Arrival[]): { first: Arrival; last: Arrival }[] {
  return arrivals
    .slice(6)
    .map((last, i) => ({ first: arrivals[i]!, last }))
    .filter(({ first, last }) => last.at - first.after < 1000);
}
