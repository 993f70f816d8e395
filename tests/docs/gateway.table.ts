// The documented commands that talk to a gateway (the suite's `npm run dev`) or a model (the simulator), in the
// README's order, each with what the README says it does. Placeholders get the running processes' addresses.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { AWS_PART_OF } from "./aws.table.js";
import { agentRow, agentRun, api, createJob, exits, json, lines, rollouts, settled } from "./checks.js";
import { write } from "./clone.js";
import type { DocContext } from "./context.js";
import { type Entry, gw, token } from "./entry.js";

/** The jobs commands against a gateway on another port than 8787: EDGEGYM_URL (the emulation here takes a free port). */
const jobsEnv = async (ctx: DocContext) => ({ EDGEGYM_URL: (await ctx.gateway()).url });
const job = (ctx: DocContext) => ctx.vars.get("job") ?? "no-job-yet";
const LISTENING = /"listening": "http:\/\/127\.0\.0\.1:11000"/;

/** The NeMo Gym agent server, started as shown, answers NeMo Gym's /run on 127.0.0.1:11000 with a scored record. */
async function pythonAgent(ctx: DocContext, run: string, env: Record<string, string>, expectInRecord = '"reward"'): Promise<void> {
  const agent = ctx.background(run, env);
  try {
    await agent.waitFor(LISTENING);
    const answer = await agentRun(agentRow(ctx, "mcqa"));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(typeof answer.body.reward, JSON.stringify(answer.body)).toBe("number");
    expect(JSON.stringify(answer.body)).toContain(expectInRecord);
  } finally {
    await agent.stop();
  }
}

export const GATEWAY: Entry[] = [
  // The gateway: `npm run dev` (one for the suite), then every command pointed at it.
  {
    doc: "npm run dev",
    background: true, // the suite's gateway: started once, on first use, and kept for the commands below
    check: async (_r, ctx) => {
      const { url, token, banner } = await ctx.gateway();
      expect(banner).toContain(`dashboard: ${url}/`);
      expect(readFileSync(`${ctx.dir}/.edgegym/dev-token`, "utf8").trim(), "saved in .edgegym/dev-token").toBe(token);
      expect((await fetch(`${url}/v1/jobs`)).status).toBe(401);
    },
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" -X POST "https://<gateway>/v1/jobs?environment=example_multi_step&num_repeats=8" -H "content-type: application/x-ndjson" --data-binary @rows.jsonl',
    run: (ctx) =>
      gw(
        ctx,
        'curl -sS -H "Authorization: Bearer $TOKEN" -X POST "https://<gateway>/v1/jobs?environment=example_multi_step&num_repeats=8" -H "content-type: application/x-ndjson" --data-binary @rows.jsonl',
      ),
    env: token,
    check: async (r, ctx) => {
      exits(r, 0);
      const created = json(r.stdout);
      expect(created.counts).toMatchObject({ total: 40 });
      ctx.vars.set("job", String(created.id));
      expect(await settled(ctx, String(created.id))).toMatchObject({ status: "completed", counts: { done: 40 } });
    },
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -X POST "https://<gateway>/run?environment=example_multi_step" -d @row.json',
    run: (ctx) =>
      gw(
        ctx,
        'curl -sS -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -X POST "https://<gateway>/run?environment=example_multi_step" -d @row.json',
      ),
    env: token,
    check: (r) => expect(json(exits(r, 0).stdout).reward).toBe(1),
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -X POST -d @row.json "https://<gateway>/run?environment=mcqa&return_token_ids=true&policy_base_url=https://my-vllm/v1&policy_model_name=Qwen/Qwen3-8B"',
    run: async (ctx) => {
      write(ctx.dir, "row.json", JSON.stringify(agentRow(ctx, "mcqa")));
      const policy = await ctx.simulator();
      return (
        await gw(
          ctx,
          'curl -sS -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -X POST -d @row.json "https://<gateway>/run?environment=mcqa&return_token_ids=true&policy_base_url=https://my-vllm/v1&policy_model_name=Qwen/Qwen3-8B"',
        )
      ).replace("https://my-vllm/v1", policy);
    },
    env: token,
    check: (r) => {
      expect(exits(r, 0).stdout).toContain('"generation_token_ids"');
      expect(typeof json(r.stdout).reward).toBe("number");
    },
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" "https://<gateway>/v1/jobs/<id>/summary?bins=10&pass_threshold=1"',
    run: async (ctx) =>
      (await gw(ctx, 'curl -sS -H "Authorization: Bearer $TOKEN" "https://<gateway>/v1/jobs/<id>/summary?bins=10&pass_threshold=1"')).replace("<id>", job(ctx)),
    env: token,
    check: (r) => expect(json(exits(r, 0).stdout).reward).toMatchObject({ count: 40, bins: expect.arrayContaining([expect.objectContaining({ from: 0 })]) }),
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" "https://<gateway>/v1/jobs/<id>/records?min_reward=0&max_reward=0.5&offset=0&limit=20"',
    run: async (ctx) =>
      (
        await gw(ctx, 'curl -sS -H "Authorization: Bearer $TOKEN" "https://<gateway>/v1/jobs/<id>/records?min_reward=0&max_reward=0.5&offset=0&limit=20"')
      ).replace("<id>", job(ctx)),
    env: token,
    check: (r) => expect(json(exits(r, 0).stdout)).toMatchObject({ object: "list", offset: 0 }),
  },
  {
    doc: "npx edgegym collect --url https://<gateway> --token $TOKEN -e example_multi_step -i rows.jsonl -o out.jsonl",
    run: (ctx) => gw(ctx, "npx edgegym collect --url https://<gateway> --token $TOKEN -e example_multi_step -i rows.jsonl -o out.jsonl"),
    env: token,
    check: (r, ctx) => {
      exits(r, 0);
      expect(rollouts(ctx, "out.jsonl")).toBe(5);
    },
  },
  // Jobs on a gateway (README "Jobs on a gateway"), on the job the curl above created.
  { doc: "npx edgegym jobs list", env: jobsEnv, check: (r, ctx) => expect(exits(r, 0).stdout).toContain(job(ctx)) },
  {
    doc: "npx edgegym jobs status <id> [--json]",
    run: (ctx) => `npx edgegym jobs status ${job(ctx)} && npx edgegym jobs status ${job(ctx)} --json`,
    env: jobsEnv,
    check: (r, ctx) => {
      exits(r, 0);
      // The plain status (with its metrics table), then the same as JSON.
      const at = r.stdout.indexOf("\n{");
      const plain = r.stdout.slice(0, at);
      expect(json(r.stdout.slice(at + 1))).toMatchObject({ id: job(ctx), status: "completed", metrics: expect.any(Object) });
      expect(plain).toContain("completed");
      expect(plain, "metrics once complete").toContain("mean/reward");
    },
  },
  {
    doc: "npx edgegym jobs results <id> -o out.jsonl",
    run: (ctx) => `npx edgegym jobs results ${job(ctx)} -o out.jsonl`,
    env: jobsEnv,
    check: (r, ctx) => {
      exits(r, 0);
      expect(lines(ctx, "out.jsonl")).toHaveLength(40);
    },
  },
  {
    doc: "npx edgegym jobs results <id> -o out.jsonl --follow",
    run: (ctx) => `npx edgegym jobs results ${job(ctx)} -o out.jsonl --follow`,
    env: jobsEnv,
    check: (r, ctx) => {
      exits(r, 0);
      expect(lines(ctx, "out.jsonl")).toHaveLength(40);
    },
  },
  {
    doc: "npx edgegym jobs cancel <id>",
    run: async (ctx) => {
      const id = await createJob(ctx, "example_multi_step", 1000); // 5,000 rollouts: still running when the cancel lands
      ctx.vars.set("big", id);
      return `npx edgegym jobs cancel ${id}`;
    },
    env: jobsEnv,
    check: (r) => expect(exits(r, 0).stdout).toContain("cancelled"),
  },
  {
    doc: "npx edgegym jobs resume <id>",
    run: (ctx) => `npx edgegym jobs resume ${ctx.vars.get("big")}`,
    env: jobsEnv,
    check: async (r, ctx) => {
      exits(r, 0);
      expect(r.stdout).toMatch(/re-enqueued \d+ rollout\(s\)/);
      // 5,000 rollouts on a loaded machine: up to 270 s; a failure says how far it had got right after the resume.
      const id = ctx.vars.get("big") ?? "";
      const after = JSON.stringify((await api(ctx, `/v1/jobs/${id}`)).counts);
      const done = await settled(ctx, id, 270_000).catch((error: Error) => {
        throw new Error(`${error.message}; right after the resume: ${after}`);
      });
      expect(done).toMatchObject({ status: "completed", counts: { total: 5000, queued: 0 } });
    },
  },
  // Python: the NeMo Gym agent server and the GRPO example.
  {
    doc: "python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>",
    run: (ctx) => gw(ctx, "python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>"),
    env: async (ctx) => ({ EDGEGYM_TOKEN: (await ctx.gateway()).token }),
    background: true,
    check: (_r, ctx, run, env) => pythonAgent(ctx, run, env),
  },
  {
    doc: "EDGEGYM_TOKEN=... python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>",
    run: async (ctx) =>
      (await gw(ctx, "EDGEGYM_TOKEN=... python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>")).replace(
        "...",
        (await ctx.gateway()).token,
      ),
    background: true,
    check: (_r, ctx, run, env) => pythonAgent(ctx, run, env),
  },
  {
    // integrations/README.md: against `npm run dev` (here on its own port, not 8787) with no token given: the agent
    // server finds the dev token `npm run dev` saved in .edgegym/dev-token.
    doc: "python3 integrations/nemo_gym/edgegym_agent.py --gateway http://127.0.0.1:8787",
    run: async (ctx) => `python3 integrations/nemo_gym/edgegym_agent.py --gateway ${(await ctx.gateway()).url}`,
    background: true,
    check: (_r, ctx, run, env) => {
      expect(env.EDGEGYM_TOKEN, "no token in the environment").toBeUndefined();
      return pythonAgent(ctx, run, env);
    },
  },
  {
    doc: "python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway> --policy-base-url http://<head-node-ip>:9100/v1 --policy-model <policy.model_name> --token-ids --failures error",
    run: async (ctx) =>
      (
        await gw(
          ctx,
          "python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway> --policy-base-url POLICY --policy-model edgegym-sim --token-ids --failures error",
        )
      ).replace("POLICY", await ctx.simulator()),
    env: async (ctx) => ({ EDGEGYM_TOKEN: (await ctx.gateway()).token }), // integrations/README.md: "EDGEGYM_TOKEN=<token> in the environment"
    background: true,
    check: (_r, ctx, run, env) => pythonAgent(ctx, run, env, '"generation_token_ids"'),
  },
  {
    doc: "python3 integrations/python/examples/grpo_batch.py --gateway http://127.0.0.1:8787 --data environments/example_multi_step/data/example.jsonl --environment example_multi_step --prompts 4 --group-size 8",
    run: async (ctx) =>
      `python3 integrations/python/examples/grpo_batch.py --gateway ${(await ctx.gateway()).url} --data environments/example_multi_step/data/example.jsonl --environment example_multi_step --prompts 4 --group-size 8`,
    check: (r) =>
      expect(
        exits(r, 0)
          .stdout.split("\n")
          .filter((l) => l.includes('"reward"')),
      ).toHaveLength(32),
  },
];

/** Lines of a recipe that the entry named runs together with it. */
export const PART_OF: Record<string, string> = {
  "export EDGEGYM_MODEL=Qwen/Qwen3-8B": "export EDGEGYM_MODEL_URL=http://my-vllm-host:8000/v1",
  "export EDGEGYM_MODEL_API_KEY=...": "export EDGEGYM_MODEL_URL=http://my-vllm-host:8000/v1",
  ...AWS_PART_OF,
};
