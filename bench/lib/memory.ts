// Resident memory of processes from /proc (Linux): now (VmRSS) and the peak the kernel kept (VmHWM), in MiB.
import { readFileSync } from "node:fs";

export interface Memory {
  rssMiB: number;
  peakMiB: number;
}

/** undefined when the process is gone. */
export function memoryOf(pid: number): Memory | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    // The process exited: it has no memory to report (the doc above).
    return undefined;
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN);
  return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
}
