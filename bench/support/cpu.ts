import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) of these processes and their children, ended ones included, from /proc. */
export function cpuSeconds(pids: number[]): number | null {
  const tick = 100; // USER_HZ on Linux
  try {
    const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
    const parent = new Map<number, number>();
    const used = new Map<number, number>();
    for (const d of all) {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parent.set(Number(d), Number(fields[1]));
        // utime + stime, and cutime + cstime: children that ended meanwhile (a postmaster's autovacuum
        // workers) count with the process that waited for them
        used.set(
          Number(d),
          Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
        );
      } catch {
        // gone meanwhile
      }
    }
    const wanted = new Set(pids);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, ppid] of parent) {
        if (!wanted.has(pid) && wanted.has(ppid)) {
          wanted.add(pid);
          grew = true;
        }
      }
    }
    let sum = 0;
    for (const pid of wanted) sum += used.get(pid) ?? 0;
    return sum / tick;
  } catch {
    return null;
  }
}
