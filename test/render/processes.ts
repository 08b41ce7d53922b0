/**
 * Chromium processes a test may have left behind, read from /proc: the descendants of a process
 * whose command is Chromium's. A browser that was closed leaves none.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface Proc {
  pid: number;
  ppid: number;
  command: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z') continue;
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')[0] ?? '';
      out.push({ pid: Number(name), ppid: Number(rest[1]), command });
    } catch {
      // It ended while we looked.
    }
  }
  return out;
}

/** Live Chromium processes under `pid` (children, grandchildren…), as "PID COMMAND". */
export function chromiumChildren(pid: number): string[] {
  const all = processes();
  const under = new Set<number>([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!under.has(p.pid) && under.has(p.ppid)) {
        under.add(p.pid);
        grew = true;
      }
    }
  }
  return all
    .filter((p) => p.pid !== pid && under.has(p.pid) && /chrom/i.test(p.command))
    .map((p) => `${p.pid} ${p.command}`);
}

/** Whether a process is alive (not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
