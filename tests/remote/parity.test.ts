// Parity: a native TypeScript environment served as a remote one (its own Worker's HTTP routes are NeMo Gym's routes,
// reached through the gateway) gives the same records as the native path on the same rows, bar the timing fields.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRemoteFile } from "../../environments/sdk/remote/config.js";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { postJson, startTestLocal } from "../helpers/local.js";
import { closedPort } from "./stand-in.js";

const NATIVE = "example_session_state_mgmt";
const REMOTE = "session_state_remote";
const TOKEN = "parity-admin-token-0123456789abcdef";
const auth = { authorization: `Bearer ${TOKEN}` };
let local: Local;

const rows = readFileSync(path.join(PROJECT_ROOT, "environments", NATIVE, "data", "example.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * A record without what differs by when and under which name it ran: the ids and timestamps the model and the agent
 * stamp (a call_id becomes its order of first appearance, so calls still pair with their outputs), and the environment
 * name in agent_ref (the record names the environment it ran on, as it should).
 */
function untimed(record: Record<string, unknown>): unknown {
  const callIds = new Map<string, string>();
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (["created_at", "completed_at", "id", "_ng_rollout_id"].includes(key) || key.endsWith("_ms")) continue;
      if (key === "call_id" && typeof inner === "string") {
        if (!callIds.has(inner)) callIds.set(inner, `call_${callIds.size}`);
        out[key] = callIds.get(inner);
      } else out[key] = walk(inner);
    }
    return out;
  };
  const agentRef = record.agent_ref as { name?: string } | undefined;
  return walk({ ...record, agent_ref: { ...agentRef, name: agentRef?.name?.replace(REMOTE, NATIVE) } });
}

beforeAll(async () => {
  // The remote entry names the gateway's own URL, so the port is chosen before it starts.
  const port = await closedPort();
  process.env.PARITY_GATEWAY_TOKEN = TOKEN;
  const file = JSON.stringify({
    remotes: [
      {
        name: REMOTE,
        baseUrls: [`http://127.0.0.1:${port}/v1/environments/${NATIVE}`],
        auth: { kind: "bearer", secret: "PARITY_GATEWAY_TOKEN" },
        stateful: true,
      },
    ],
  });
  local = await startTestLocal({
    port,
    environments: [NATIVE],
    remotes: parseRemoteFile(file, "edgegym.remote.json", [NATIVE]),
    apiTokens: `parity:${TOKEN}:admin`,
  });
}, 120_000);

afterAll(async () => {
  await local?.stop();
  delete process.env.PARITY_GATEWAY_TOKEN;
});

describe(`${NATIVE} served remotely`, () => {
  it.each(rows.map((row, i) => [i, row] as const))("row %i: the same record through the native and the remote path", async (_i, row) => {
    const native = await postJson(`${local.url}/run?environment=${NATIVE}`, row, auth);
    const remote = await postJson(`${local.url}/run?environment=${REMOTE}`, row, auth);
    expect(native.status).toBe(200);
    expect(remote.status, JSON.stringify(remote.body).slice(0, 1000)).toBe(200);
    expect(untimed(remote.body)).toEqual(untimed(native.body));
    // Not vacuous: the rollout called the environment's tools and was scored.
    const outputs = (native.body.response.output as { type: string }[]).filter((item) => item.type === "function_call_output");
    expect(outputs.length).toBeGreaterThan(0);
    expect(typeof native.body.reward).toBe("number");
  });
});
