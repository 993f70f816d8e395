// Starts one process in a local sandbox: new user, network, PID and mount namespaces (unshare), its own uid, rlimits.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Limits } from "./limits.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const JAIL = path.join(HERE, "jail.sh");
/** The driver folder (the Python kernel), bound read-only at its host path. */
export const DRIVER_DIR = path.join(HERE, "driver");
const OWN_USER_NS = readlinkSync("/proc/self/ns/user");

/** Where a sandbox lives on the host and what its processes may see of it. */
export interface JailPlace {
  /** Host directory: `work` (the sandbox's /sandbox) and `root` (an empty mount point). */
  dir: string;
  /**
   * The host uid the sandbox's processes run as (inner uid 1000), when the service runs as root; null when it runs as
   * any other user: the sandbox is then that user inside its own user namespace, every capability dropped.
   */
  uid: number | null;
  /** Host paths bound read-only at the same path (runtimes). */
  binds: string[];
  /** PATH inside. */
  pathVar: string;
}

/**
 * Spawns `command` jailed, in its own process group (so a kill reaches the whole tree). As root, the namespace's uid_map
 * is written from here: inner root is the host's root for the mounts only, then the program runs as inner 1000, a uid of
 * its own on the host, so RLIMIT_NPROC counts only this sandbox's processes and no capability is left. As another user,
 * inner root is that user; the program keeps inner uid 0 with an empty capability bounding set and no_new_privs, so it
 * can neither undo its read-only mounts nor gain a capability (RLIMIT_NPROC counts per user namespace).
 */
export function spawnJailed(place: JailPlace, command: string[], env: Record<string, string>, limits: Limits): ChildProcessWithoutNullStreams {
  const assignments = Object.entries(env).map(([key, value]) => `${key}=${value}`);
  const args = [
    "--user",
    // Unprivileged: unshare maps inner root to this user itself (an unprivileged process may map only its own uid).
    ...(place.uid === null ? ["--map-root-user"] : []),
    "--net",
    "--pid",
    "--fork",
    "--mount",
    "--kill-child",
    "sh",
    JAIL,
    path.join(place.dir, "root"),
    path.join(place.dir, "work"),
    String(Math.ceil(limits.cpuSeconds)),
    String(limits.memoryMib * 1024 * 1024),
    String(limits.processes),
    String(limits.diskBytes),
    "--",
    ...assignments,
    ...command,
  ];
  const child = spawn("unshare", args, {
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    // The jail script's own environment: nothing of the host's beyond what it needs.
    env: {
      PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
      JAIL_BINDS: place.binds.join(":"),
      JAIL_PATH: place.pathVar,
      JAIL_USER: place.uid === null ? "self" : "sandbox",
    },
  });
  if (child.pid !== undefined && place.uid !== null) mapIds(child.pid, place.uid);
  return child;
}

/** Waits (briefly) for unshare to enter its user namespace, then maps inner 0 → host 0 and inner 1000 → the sandbox's uid. */
function mapIds(pid: number, uid: number): void {
  const until = Date.now() + 2000;
  while (Date.now() < until) {
    let ns: string;
    try {
      ns = readlinkSync(`/proc/${pid}/ns/user`);
    } catch {
      return; // already gone: its exit reports the failure
    }
    if (ns === OWN_USER_NS) continue;
    const map = `0 0 1\n1000 ${uid} 1\n`;
    writeFileSync(`/proc/${pid}/uid_map`, map);
    writeFileSync(`/proc/${pid}/gid_map`, map);
    return;
  }
}

/** Kills the process group (unshare, and with it the namespace's init and every process in it). */
export function killTree(child: ChildProcessWithoutNullStreams): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}
