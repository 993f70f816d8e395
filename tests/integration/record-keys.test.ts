// A record our agent writes carries the keys NeMo Gym's recorded rollouts carry, in `response` and in each output item type.
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { readJsonl } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

type Json = Record<string, unknown>;
const ENVIRONMENTS_DIR = path.join(PROJECT_ROOT, "environments");
const ENVIRONMENTS = readdirSync(ENVIRONMENTS_DIR).filter((name) => {
  try {
    return readdirSync(path.join(ENVIRONMENTS_DIR, name, "data")).includes("example_rollouts.jsonl");
  } catch {
    return false;
  }
});

/**
 * Keys only some model providers add to NeMo Gym's responses (OpenAI's billing, content filters and sampling echoes;
 * vLLM's transfer and message fields): edgegym's model proxy is neither, so its records leave them out.
 */
const PROVIDER_ONLY = new Set([
  "billing",
  "content_filters",
  "frequency_penalty",
  "presence_penalty",
  "kv_transfer_params",
  "input_messages",
  "output_messages",
  // math_with_code's recordings copy the row's expected_answer into the response (a quirk of that recording, no API key).
  "expected_answer",
  // The OpenAI Python SDK's convenience property, serialized into some recordings (the text is in `output` already).
  "output_text",
]);
/** edgegym's reasoning items say they completed, as OpenAI's Responses items do; NeMo Gym's recorded ones omit it. */
const OURS_ONLY: Record<string, string[]> = { reasoning: ["status"] };

/**
 * The keys of `response`, and of each output item type, across every bundled environment's recorded rollouts: each
 * environment's were recorded against another model server, so together they are what NeMo Gym's records carry.
 */
function recordedKeys(): { response: Set<string>; items: Map<string, Set<string>> } {
  const response = new Set<string>();
  const items = new Map<string, Set<string>>();
  const records = ENVIRONMENTS.flatMap((environment) => readJsonl(path.join(ENVIRONMENTS_DIR, environment, "data", "example_rollouts.jsonl")));
  for (const record of records) {
    const body = record.response as Json;
    for (const key of Object.keys(body)) if (!PROVIDER_ONLY.has(key)) response.add(key);
    for (const item of body.output as Json[]) {
      const keys = items.get(kindOf(item)) ?? new Set<string>();
      for (const key of Object.keys(item)) keys.add(key);
      items.set(kindOf(item), keys);
    }
  }
  return { response, items };
}

const RECORDED = recordedKeys();

/** An item's type, and a message's role: a gymnasium observation (a user message) has no id or status in NeMo Gym's either. */
function kindOf(item: Json): string {
  return item.type === "message" ? `message/${item.role}` : (item.type as string);
}

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: ENVIRONMENTS });
}, 120_000);
afterAll(async () => {
  await local?.stop();
});

describe("record keys against NeMo Gym's recorded rollouts", () => {
  it.each(ENVIRONMENTS)("%s: response and output items carry NeMo Gym's keys", async (environment) => {
    const [row] = readJsonl(path.join(ENVIRONMENTS_DIR, environment, "data", "example.jsonl"));
    const answer = await postJson(`${local.url}/run?environment=${environment}`, row);
    expect(answer.status).toBe(200);
    const ours = answer.body.response as Json;
    const recorded = RECORDED;
    // Every key NeMo Gym's response carries in any of its recorded rollouts (bar provider-only ones), and no other.
    expect(Object.keys(ours).sort()).toEqual([...recorded.response].sort());
    expect(ours.metadata).toBeNull();
    for (const key of ["conversation", "moderation", "prompt_cache_key", "safety_identifier"]) expect(ours[key], key).toBeNull();
    for (const item of ours.output as Json[]) {
      const theirs = recorded.items.get(kindOf(item));
      expect(theirs, `${kindOf(item)} items in NeMo Gym's rollouts`).toBeDefined();
      const extra = OURS_ONLY[item.type as string] ?? [];
      expect(
        Object.keys(item)
          .filter((k) => !extra.includes(k))
          .sort(),
        `${kindOf(item)} item`,
      ).toEqual([...theirs!].sort());
    }
  });
});
