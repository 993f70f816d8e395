// Local state is private to its user: the dev token, the session secret, the emulation's persisted state and its logs
// are made 0600 in 0700 folders, and files and folders found looser are tightened when a run starts.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveDevToken } from "../../local/cli/token.js";
import { sessionSecret } from "../../local/secrets.js";
import { startTestLocal } from "../helpers/local.js";

const modeOf = (file: string) => statSync(file).mode & 0o777;
let root: string;
let umask: number;
beforeAll(() => {
  // The usual umask, under which a file made without a mode is 0644 and a folder 0755.
  umask = process.umask(0o022);
  root = mkdtempSync(path.join(tmpdir(), "edgegym-modes-"));
});
afterAll(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

describe("local state file modes", () => {
  it("the dev token: 0600 in a 0700 folder, an existing world-readable file tightened", () => {
    const dir = path.join(root, "dev");
    const file = saveDevToken("a-dev-token-of-at-least-32-characters-x", dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
    chmodSync(file, 0o644);
    chmodSync(dir, 0o755);
    saveDevToken("another-dev-token-of-at-least-32-characters", dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
  });

  it("the session secret: 0600 in a 0700 folder, tightened when read back", () => {
    const dir = path.join(root, "secret");
    const secret = sessionSecret(dir);
    const file = path.join(dir, "session-secret");
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
    chmodSync(file, 0o644);
    expect(sessionSecret(dir)).toBe(secret);
    expect(modeOf(file)).toBe(0o600);
  });

  it("an emulation's persisted state and logs: every folder 0700, every file 0600, old ones tightened at start", async () => {
    const state = path.join(root, "state");
    const logs = path.join(root, "logs");
    // What an older run left, as it made it: world-readable.
    mkdirSync(path.join(state, "old"), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(state, "old", "rows.sqlite"), "x", { mode: 0o644 });
    mkdirSync(logs, { mode: 0o755 });
    writeFileSync(path.join(logs, "2020-01-01.jsonl"), "{}\n", { mode: 0o644 });
    const local = await startTestLocal({ environments: ["example_single_tool_call"], persist: state, logs: { dir: logs } });
    try {
      expect(modeOf(state)).toBe(0o700);
      expect(modeOf(path.join(state, "old"))).toBe(0o700);
      expect(modeOf(path.join(state, "old", "rows.sqlite"))).toBe(0o600);
      expect(modeOf(path.join(state, "session-secret"))).toBe(0o600);
      expect(modeOf(logs)).toBe(0o700);
      const files = readdirSync(logs).map((name) => path.join(logs, name));
      expect(files.length).toBe(2);
      for (const file of files) expect(modeOf(file), file).toBe(0o600);
    } finally {
      await local.stop();
    }
  });
});
