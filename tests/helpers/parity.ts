// Parity with NeMo Gym's recorded rollouts: pair a record with its example row, and re-verify it in workerd.
import { expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { fixtureRollouts, fixtureRows, inputKey } from "./fixtures.js";
import { postJson } from "./local.js";

/** A recorded rollout with its example row's task fields, which NeMo Gym's records do not always keep. */
export function withTaskFields(name: string, record: Record<string, unknown>): Record<string, unknown> {
  const row = fixtureRows(name).find((r) => inputKey(r) === inputKey(record));
  if (!row) throw new Error(`no example row of ${name} matches a recorded rollout`);
  const { responses_create_params: _params, ...task } = row;
  return { ...task, ...record };
}

/** The verifier's own fields of a record: everything but the request NeMo Gym echoes back. */
export function verdict(record: Record<string, unknown>): Record<string, unknown> {
  const { responses_create_params: _p, response: _r, _ng_task_index: _t, _ng_rollout_index: _ri, agent_ref: _a, ...rest } = record;
  return rest;
}

/** One test per recorded rollout: /verify in workerd gives NeMo Gym's reward and every field it recorded. */
export function recordedRolloutsMatch(name: string, local: () => Local): void {
  it.each(fixtureRollouts(name).map((record, i) => [i, record] as const))("recorded rollout %i: same reward and fields", async (_i, record) => {
    const { reward: _reward, ...request } = withTaskFields(name, record);
    const answer = await postJson(`${local().url}/v1/environments/${name}/verify`, request);
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(record.reward);
    for (const [key, value] of Object.entries(verdict(record))) expect(answer.body[key], key).toEqual(value);
  });
}
