// Progress of a long collection: a live bar on a terminal, a line every tenth elsewhere (CI logs).
import { SingleBar, Presets } from "cli-progress";

export interface Progress {
  start(total: number): void;
  tick(failed: boolean): void;
  stop(): void;
}

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  let done = 0;
  let failed = 0;
  let total = 0;
  if (stream.isTTY) {
    const bar = new SingleBar(
      { format: `${label} [{bar}] {value}/{total} rollouts | {failed} failed | {eta_formatted} left`, stream, hideCursor: true },
      Presets.shades_classic,
    );
    return {
      start: (n) => bar.start((total = n), 0, { failed: 0 }),
      tick: (f) => bar.update(++done, { failed: (failed += f ? 1 : 0) }),
      stop: () => bar.stop(),
    };
  }
  let reported = 0;
  return {
    start: (n) => {
      total = n;
    },
    tick: (f) => {
      done++;
      failed += f ? 1 : 0;
      const tenth = Math.floor((done * 10) / Math.max(total, 1));
      if (tenth > reported || done === total) {
        reported = tenth;
        stream.write(`${label}: ${done}/${total} rollouts, ${failed} failed\n`);
      }
    },
    stop: () => undefined,
  };
}

export const silentProgress: Progress = { start: () => undefined, tick: () => undefined, stop: () => undefined };
