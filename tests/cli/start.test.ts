// `npm start`, the README's main job: every bundled environment's example data collected through the queues, with the
// simulator as the model. Each environment must end with records and no failure record (a failure here is a broken
// environment, not a bad answer: the simulator's wrong answers are scored, with reward 0).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { discoverEnvironments, exampleDataset, HARNESS_ONLY } from "../../local/environments.js";
import { PROJECT_ROOT } from "../../local/paths.js";

const run = promisify(execFile);
const out = mkdtempSync(path.join(tmpdir(), "edgegym-start-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("npm start", () => {
  it("collects every environment's examples (one repeat here): records for each, no failure record, exit 0", async () => {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "local", "start.ts")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, EDGEGYM_NUM_REPEATS: "1", EDGEGYM_OUT_DIR: out, EDGEGYM_TOKEN: "" },
      timeout: 400_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const environments = discoverEnvironments().filter((name) => exampleDataset(name) && !HARNESS_ONLY[name]);
    expect(environments.length).toBeGreaterThanOrEqual(17);
    // Rows meant for an MCP client harness are named as such, not run (their own tests run them over /mcp).
    for (const [name, why] of Object.entries(HARNESS_ONLY)) expect(stderr).toContain(`not collected: ${name}: ${why}`);
    for (const environment of environments) {
      const rows = readFileSync(exampleDataset(environment)!, "utf8")
        .split("\n")
        .filter((line) => line.trim()).length;
      const records = readFileSync(path.join(out, `${environment}.jsonl`), "utf8")
        .split("\n")
        .filter(Boolean);
      expect(records.length, `${environment}: records`).toBe(rows);
      expect(existsSync(path.join(out, `${environment}.failures.jsonl`)), `${environment}: ${readdirSync(out).join(", ")}`).toBe(false);
      expect(stdout).toMatch(new RegExp(`^${environment}\\s+${rows}\\s+0\\s`, "m"));
    }
  }, 420_000);
});
