// CPU time of processes from /proc (Linux): utime + stime of /proc/<pid>/stat, in clock ticks, and a process's descendants.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's times (`getconf CLK_TCK`, 100 on Linux in practice). */
export function clockTicksPerSecond(): number {
  const value = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  if (!Number.isInteger(value) || value <= 0) throw new Error(`getconf CLK_TCK gave "${value}"`);
  return value;
}

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  /** utime + stime, in clock ticks: the process's own CPU over all its threads (children that exited not included). */
  ticks: number;
}

/** Parses /proc/<pid>/stat; undefined when the process is gone. */
export function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    // The process exited between listing and reading: it has no stat (the doc above).
    return undefined;
  }
  // comm is in parentheses and may itself hold spaces or ")": the fields after it start past the last ")".
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  const fields = text
    .slice(close + 2)
    .trim()
    .split(" ");
  // fields[0] is field 3 (state): ppid is field 4, utime field 14, stime field 15 (proc(5)).
  return { pid, comm, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

/** Every live process below `root` (children, their children, …), not `root` itself. */
export function descendants(root: number): Stat[] {
  const all: Stat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) all.push(stat);
  }
  const found: Stat[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const stat of all) {
      if (stat.ppid !== parent) continue;
      found.push(stat);
      frontier.push(stat.pid);
    }
  }
  return found;
}

/** CPU ticks per pid at one moment, for a set of processes. */
export type TickSnapshot = Map<number, { comm: string; ticks: number }>;

export function snapshot(stats: Stat[]): TickSnapshot {
  return new Map(stats.map((s) => [s.pid, { comm: s.comm, ticks: s.ticks }]));
}

/**
 * Ticks spent between two snapshots, over the processes alive at the end. A process that ended during the window
 * would lose its time: it is named in `ended` so the caller can refuse the figure.
 */
export function ticksBetween(before: TickSnapshot, after: TickSnapshot): { ticks: number; ended: string[]; started: string[] } {
  let ticks = 0;
  const started: string[] = [];
  for (const [pid, now] of after) {
    const then = before.get(pid);
    if (!then) started.push(`${now.comm}(${pid})`);
    ticks += now.ticks - (then?.ticks ?? 0);
  }
  const ended = [...before].filter(([pid]) => !after.has(pid)).map(([pid, s]) => `${s.comm}(${pid})`);
  return { ticks, ended, started };
}
