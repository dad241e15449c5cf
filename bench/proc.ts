/** Readings of a process and of the machine from /proc, for the benchmarks that spawn servers. */
import { readdir, readFile } from 'node:fs/promises';

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ; `getconf CLK_TCK` is 100 on Linux

/** User + system CPU seconds of a process and all its threads so far, from /proc/<pid>/stat. */
export async function processCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which sits in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** Busy and stolen CPU seconds of the whole machine (all cores) so far, from /proc/stat. */
export async function machineCpuSeconds(): Promise<{ busy: number; steal: number }> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0] ?? '';
  // cpu user nice system idle iowait irq softirq steal guest guest_nice
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    busy: (user + nice + system + irq + softirq) / CLOCK_TICKS_PER_SECOND,
    steal: steal / CLOCK_TICKS_PER_SECOND,
  };
}

/** VmRSS and VmHWM (peak) of a process, in KiB, from /proc/<pid>/status. */
export async function processMemoryKiB(pid: number): Promise<{ rssKiB: number; hwmKiB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match?.[1]) throw new Error(`no ${name} in /proc/${pid}/status`);
    return Number(match[1]);
  };
  return { rssKiB: field('VmRSS'), hwmKiB: field('VmHWM') };
}

/**
 * CPU seconds used so far by the PostgreSQL server on this machine: its live processes, plus
 * what its exited backends used (reaped by the postmaster, so counted in its children's time),
 * so a benchmark's PostgreSQL work is measured even when its connections are gone.
 */
export async function postgresCpuSeconds(): Promise<number> {
  let ticks = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    if (!stat.slice(open + 1, close).startsWith('postgres')) continue;
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    const parent = await readFile(`/proc/${fields[1]}/comm`, 'utf8').catch(() => '');
    // The postmaster: its reaped children's time (cutime, cstime).
    if (!parent.startsWith('postgres')) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}
