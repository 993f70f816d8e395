// `edgegym reverify` on a remote environment's records: through the server's POST /verify when it says stateless (the
// stand-in does), skipped when its entry says otherwise.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeReverify, reverify } from "../../local/cli/reverify.js";
import { type StandIn, startStandIn } from "./stand-in.js";

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn();
});
afterAll(async () => {
  await server.stop();
});

const response = { id: "r", output: [], model: "m" };
function files(remote: Record<string, unknown>) {
  const dir = mkdtempSync(path.join(tmpdir(), "edgegym-reverify-remote-"));
  const remoteConfig = path.join(dir, "remote.json");
  writeFileSync(remoteConfig, JSON.stringify({ remotes: [{ name: "stand_in", baseUrls: [server.url], ...remote }] }));
  const input = path.join(dir, "rollouts.jsonl");
  const records = [
    { response, reward: 1, count: 3, expected_count: 3 },
    { response, reward: 1, count: 2, expected_count: 3 },
  ];
  writeFileSync(input, `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return { input, remoteConfig, output: path.join(dir, "out.jsonl") };
}

describe("edgegym reverify on a remote environment", () => {
  it("re-verifies through the server's /verify when it says stateless, and reports the changed reward", async () => {
    const { input, remoteConfig, output } = files({});
    const report = await reverify({ input, remoteConfig, output, environment: "stand_in" });
    expect(describeReverify("rollouts.jsonl", report)).toEqual([
      "rollouts.jsonl:2: reward 1 -> 0 (stand_in)",
      "2 read: 2 re-verified (1 unchanged, 1 changed), 0 skipped, 0 error(s)",
    ]);
    const written = readFileSync(output, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written.map((r) => [r.reward, r.previous_reward])).toEqual([
      [1, 1],
      [0, 1],
    ]);
  });

  it("skips the records when the entry says the server cannot re-verify", async () => {
    const { input, remoteConfig } = files({ reverify: "unsupported" });
    const report = await reverify({ input, remoteConfig, environment: "stand_in" });
    expect(describeReverify("rollouts.jsonl", report)).toEqual([
      "skipped 2: stand_in: the server's reverify_mode is unsupported",
      "2 read: 0 re-verified (0 unchanged, 0 changed), 2 skipped, 0 error(s)",
    ]);
  });

  it("names the line when the server's /verify answers no reward", async () => {
    const { input, remoteConfig } = files({});
    await server.fault("wrong");
    try {
      const report = await reverify({ input, remoteConfig, environment: "stand_in" });
      expect(report.errors).toEqual([
        { line: 1, message: "stand_in /verify answered no numeric reward" },
        { line: 2, message: "stand_in /verify answered no numeric reward" },
      ]);
    } finally {
      await server.fault("none");
    }
  });
});
