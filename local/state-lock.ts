// One process at a time on a local state folder: two workerd processes on one SQLite state block each other (a
// `collect` beside a running `edgegym dev` hung on SQLITE_BUSY). The owner's pid and purpose sit in `<state>.owner`.
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface StateOwner {
  pid: number;
  what: string;
}

export interface StateClaim {
  /** Says what holds the state, for whoever finds it taken (the gateway's address, once known). */
  describe(what: string): void;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds it, which is alive all the same.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ownerOf(file: string): StateOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, "utf8")) as Partial<StateOwner>;
    return typeof owner.pid === "number" ? { pid: owner.pid, what: String(owner.what ?? "edgegym") } : undefined;
  } catch {
    return undefined;
  }
}

/** Claims `dir` for this process, or answers the live process that holds it (a dead owner's claim is taken over). */
export function claimState(dir: string, what: string): StateClaim | StateOwner {
  const file = `${path.resolve(dir)}.owner`;
  mkdirSync(path.dirname(file), { recursive: true });
  const mine = JSON.stringify({ pid: process.pid, what });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeFileSync(fd, mine);
      closeSync(fd);
      return {
        describe(what) {
          if (ownerOf(file)?.pid === process.pid) writeFileSync(file, JSON.stringify({ pid: process.pid, what }));
        },
        release() {
          if (ownerOf(file)?.pid === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = ownerOf(file);
      if (owner && owner.pid !== process.pid && alive(owner.pid)) return owner;
      rmSync(file, { force: true });
    }
  }
  return { pid: -1, what: `another process racing for ${dir}` };
}

export function isClaim(result: StateClaim | StateOwner): result is StateClaim {
  return "release" in result;
}

export interface HeldState {
  /** The state folder this process runs on: the one asked for, or a private one when that was taken. */
  dir: string;
  describe(what: string): void;
  release(): void;
}

/**
 * Holds `dir` for this process; when a live process holds it, runs on a fresh folder of its own (removed at release),
 * saying so on stderr once: two runs side by side each work, and neither touches the other's state.
 */
export function holdState(dir: string): HeldState {
  const claim = claimState(dir, `the edgegym (pid ${process.pid}) starting on it`);
  if (isClaim(claim)) return { dir, describe: claim.describe, release: claim.release };
  const own = mkdtempSync(path.join(tmpdir(), "edgegym-state-"));
  process.stderr.write(`${dir} is in use by ${claim.what}: this run keeps its state in ${own} (removed when it ends)\n`);
  return {
    dir: own,
    describe() {},
    release() {
      rmSync(own, { recursive: true, force: true });
    },
  };
}
