// Every command README.md and integrations/README.md show, and how the suite runs it and what it checks (as the text
// says); or why it cannot run here; or which other test runs it. A new documented command needs a line here.
import { expect } from "vitest";
import type { Result } from "./clone.js";
import type { DocContext } from "./context.js";
import { agentRow, agentRun, api, createJob, exists, exits, json, lines, rollouts, settled } from "./checks.js";

export interface Entry {
  /** The command exactly as the extractor reads it from the README (continuations joined, comment cut). */
  doc: string;
  /** What runs: the command with its placeholders filled. Default: `doc` as is. */
  run?: (ctx: DocContext) => Promise<string> | string;
  /** Variables the user has set for it, as the README's text around it says. */
  env?: (ctx: DocContext) => Promise<Record<string, string>> | Record<string, string>;
  /** Started with `&`: the check gets no Result, and stops the process itself. */
  background?: true;
  check: (result: Result | undefined, ctx: DocContext, run: string, env: Record<string, string>) => Promise<void> | void;
}

const gw = async (ctx: DocContext, text: string): Promise<string> => text.replaceAll("https://<gateway>", (await ctx.gateway()).url);
const token = async (ctx: DocContext) => ({ TOKEN: (await ctx.gateway()).token });
/** The jobs commands against a gateway on another port than 8787: EDGEGYM_URL (the emulation here takes a free port). */
const jobsEnv = async (ctx: DocContext) => ({ EDGEGYM_URL: (await ctx.gateway()).url });
const job = (ctx: DocContext) => ctx.vars.get("job") ?? "no-job-yet";

const pythonAgent = async (ctx: DocContext, run: string, env: Record<string, string>): Promise<void> => {
  const agent = ctx.background(run, env);
  try {
    await agent.waitFor(/"listening": "http:\/\/127\.0\.0\.1:11000"/);
    const answer = await agentRun(agentRow(ctx, "mcqa"));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(typeof answer.body.reward, JSON.stringify(answer.body)).toBe("number");
  } finally {
    await agent.stop();
  }
};

export const ENTRIES: Entry[] = [
  // Datasets: validate → collate → render → collect → export (the clone's data/ made from the bundled examples).
  { doc: "npx edgegym dataset validate data/mcqa.jsonl -e mcqa", check: (r) => (exits(r!, 0), expect(r!.stdout).toMatch(/data\/mcqa\.jsonl: 5 row\(s\), 0 bad; checked 5 against mcqa/)) },
  {
    doc: "npx edgegym dataset validate data/strings.jsonl data/strings-val.jsonl -e string_match",
    check: (r, ctx) => {
      exits(r!, 1);
      expect(r!.stdout + r!.stderr).toContain("data/strings.jsonl:7: expected_answer: Invalid input: expected string, received undefined");
      ctx.fixStrings(); // the reader fixes the row before step 2
    },
  },
  {
    doc: "npx edgegym dataset collate -o prepared -d mcqa:train:data/mcqa.jsonl:4 -d string_match:train:data/strings.jsonl -d string_match:validation:data/strings-val.jsonl",
    check: (r, ctx) => {
      exits(r!, 0);
      exists(ctx, "prepared/train_metrics.json", "prepared/validation_metrics.json");
      const train = lines(ctx, "prepared/train.jsonl");
      expect(train).toHaveLength(5 * 4 + 5);
      expect(new Set(train.map((row) => (row.agent_ref as { name: string }).name))).toEqual(new Set(["mcqa_simple_agent", "string_match_simple_agent"]));
      expect(lines(ctx, "prepared/validation.jsonl")).toHaveLength(2);
    },
  },
  {
    doc: "npx edgegym dataset render -i raw.jsonl --prompt-config prompt.yaml -o rendered.jsonl",
    check: (r, ctx) => (exits(r!, 0), expect(JSON.stringify(lines(ctx, "rendered.jsonl")[0])).toContain("Question: What is the capital of France?")),
  },
  {
    doc: "npx edgegym collect -i prepared --split train -o out/train.jsonl --num-repeats mcqa=8,_default=2 --num-repeats-add-seed --temperature 0.8 --top-p 0.95 --max-output-tokens 4096",
    check: (r, ctx) => {
      exits(r!, 0);
      exists(ctx, "out/train.metrics.json", "out/train_aggregate_metrics.json");
      expect(rollouts(ctx, "out/train.jsonl")).toBe(5 * 4 * 8 + 5 * 2);
      const params = lines(ctx, "out/train.jsonl")[0]?.responses_create_params as Record<string, unknown>;
      expect(params).toMatchObject({ temperature: 0.8, top_p: 0.95, max_output_tokens: 4096, metadata: { extra_body: expect.stringContaining("seed") } });
      expect(r!.stdout).toContain("mean/reward");
    },
  },
  // With the simulator as the model, mcqa and string_match score 0: nothing is kept, the summary says why, exit 1.
  {
    doc: "npx edgegym export --format sft -i out/train.jsonl -o sft.jsonl --min-reward 1",
    check: (r, ctx) => (exits(r!, 1), expect(json(r!.stdout)).toMatchObject({ read: 170, written: 0, sft: { below_min_reward: 170 } }), exists(ctx, "sft.jsonl")),
  },
  {
    doc: "npx edgegym export --format dpo -i out/train.jsonl -o dpo.jsonl --pairing best-worst --min-margin 0.5",
    check: (r, ctx) => (exits(r!, 1), expect(json(r!.stdout)).toMatchObject({ read: 170, written: 0, dpo: { tasks: 10, no_reward_spread: 10 } }), exists(ctx, "dpo.jsonl")),
  },
  { doc: "npx edgegym reverify -i out/train.jsonl", check: (r) => (exits(r!, 0), expect(r!.stdout).not.toMatch(/reward .* -> /)) },
  {
    doc: "npx edgegym collect --environment example_multi_step --input environments/example_multi_step/data/example.jsonl --output out/multi_step.jsonl --num-repeats 8",
    check: (r, ctx) => {
      exits(r!, 0);
      expect(rollouts(ctx, "out/multi_step.jsonl")).toBe(5 * 8);
      exists(ctx, "out/multi_step.metrics.json", "out/multi_step_aggregate_metrics.json");
      expect(r!.stdout).toContain("mean/reward");
    },
  },
  // Write your own environment.
  { doc: "npx edgegym init capital_quiz", check: (r, ctx) => (exits(r!, 0), exists(ctx, "environments/capital_quiz/index.ts", "environments/capital_quiz/data/example.jsonl", "environments/capital_quiz/README.md", "tests/environments/capital_quiz.test.ts")) },
  { doc: "npx edgegym env test capital_quiz", check: (r) => exits(r!, 0) },
  // Small tools.
  { doc: "openssl rand -hex 32", check: (r) => (exits(r!, 0), expect(r!.stdout).toMatch(/^[0-9a-f]{64}\n$/)) },
  { doc: "python3 -m unittest discover -s integrations/tests -t integrations/tests", check: (r) => (exits(r!, 0), expect(r!.stderr).toMatch(/\nOK\s*$/)) },
  {
    doc: "npm run gen:dashboard",
    check: async (r, ctx) => {
      exits(r!, 0);
      const { readFileSync } = await import("node:fs");
      const { PROJECT_ROOT } = await import("../../local/paths.js");
      const file = "functions/gateway/dashboard/assets.generated.ts";
      expect(readFileSync(`${ctx.dir}/${file}`, "utf8"), "the committed dashboard assets are what gen:dashboard makes").toBe(readFileSync(`${PROJECT_ROOT}/${file}`, "utf8"));
    },
  },
  // The gateway: `npm run dev` (one for the suite), then every command pointed at it.
  {
    doc: "npm run dev",
    run: () => "true",
    check: async (_r, ctx) => {
      const { url, token, banner } = await ctx.gateway();
      expect(banner).toContain(`dashboard: ${url}/`);
      const { readFileSync } = await import("node:fs");
      expect(readFileSync(`${ctx.dir}/.edgegym/dev-token`, "utf8").trim(), "saved in .edgegym/dev-token").toBe(token);
      expect((await fetch(`${url}/v1/jobs`)).status).toBe(401);
    },
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" -X POST "https://<gateway>/v1/jobs?environment=example_multi_step&num_repeats=8" -H "content-type: application/x-ndjson" --data-binary @rows.jsonl',
    run: (ctx) => gw(ctx, 'curl -sS -H "Authorization: Bearer $TOKEN" -X POST "https://<gateway>/v1/jobs?environment=example_multi_step&num_repeats=8" -H "content-type: application/x-ndjson" --data-binary @rows.jsonl'),
    env: token,
    check: async (r, ctx) => {
      exits(r!, 0);
      const created = json(r!.stdout);
      expect(created.counts).toMatchObject({ total: 40 });
      ctx.vars.set("job", String(created.id));
      expect(await settled(ctx, String(created.id))).toMatchObject({ status: "completed", counts: { done: 40 } });
    },
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -X POST "https://<gateway>/run?environment=example_multi_step" -d @row.json',
    run: (ctx) => gw(ctx, 'curl -sS -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -X POST "https://<gateway>/run?environment=example_multi_step" -d @row.json'),
    env: token,
    check: (r) => (exits(r!, 0), expect(json(r!.stdout).reward).toBe(1)),
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -X POST -d @row.json "https://<gateway>/run?environment=mcqa&return_token_ids=true&policy_base_url=https://my-vllm/v1&policy_model_name=Qwen/Qwen3-8B"',
    run: async (ctx) => {
      const { write } = await import("./clone.js");
      write(ctx.dir, "row.json", JSON.stringify(agentRow(ctx, "mcqa")));
      const policy = await ctx.simulator();
      return (await gw(ctx, 'curl -sS -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -X POST -d @row.json "https://<gateway>/run?environment=mcqa&return_token_ids=true&policy_base_url=https://my-vllm/v1&policy_model_name=Qwen/Qwen3-8B"')).replace("https://my-vllm/v1", policy);
    },
    env: token,
    check: (r) => (exits(r!, 0), expect(r!.stdout).toContain('"generation_token_ids"'), expect(typeof json(r!.stdout).reward).toBe("number")),
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" "https://<gateway>/v1/jobs/<id>/summary?bins=10&pass_threshold=1"',
    run: async (ctx) => (await gw(ctx, 'curl -sS -H "Authorization: Bearer $TOKEN" "https://<gateway>/v1/jobs/<id>/summary?bins=10&pass_threshold=1"')).replace("<id>", job(ctx)),
    env: token,
    check: (r) => (exits(r!, 0), expect(json(r!.stdout).reward).toMatchObject({ count: 40, bins: expect.arrayContaining([expect.objectContaining({ from: 0 })]) })),
  },
  {
    doc: 'curl -H "Authorization: Bearer $TOKEN" "https://<gateway>/v1/jobs/<id>/records?min_reward=0&max_reward=0.5&offset=0&limit=20"',
    run: async (ctx) => (await gw(ctx, 'curl -sS -H "Authorization: Bearer $TOKEN" "https://<gateway>/v1/jobs/<id>/records?min_reward=0&max_reward=0.5&offset=0&limit=20"')).replace("<id>", job(ctx)),
    env: token,
    check: (r) => (exits(r!, 0), expect(json(r!.stdout)).toMatchObject({ object: "list", offset: 0 })),
  },
  {
    doc: "npx edgegym collect --url https://<gateway> --token $TOKEN -e example_multi_step -i rows.jsonl -o out.jsonl",
    run: (ctx) => gw(ctx, "npx edgegym collect --url https://<gateway> --token $TOKEN -e example_multi_step -i rows.jsonl -o out.jsonl"),
    env: token,
    check: (r, ctx) => (exits(r!, 0), expect(rollouts(ctx, "out.jsonl")).toBe(5)),
  },
  // Jobs on a gateway (README "Jobs on a gateway"), on the job the curl above created.
  { doc: "npx edgegym jobs list", env: jobsEnv, check: (r, ctx) => (exits(r!, 0), expect(r!.stdout).toContain(job(ctx))) },
  {
    doc: "npx edgegym jobs status <id> [--json]",
    run: (ctx) => `npx edgegym jobs status ${job(ctx)} && npx edgegym jobs status ${job(ctx)} --json`,
    env: jobsEnv,
    check: (r, ctx) => {
      exits(r!, 0);
      const [plain, ...rest] = r!.stdout.split("\n");
      expect(json(rest.join("\n"))).toMatchObject({ id: job(ctx), status: "completed", metrics: expect.any(Object) });
      expect(plain).toContain("completed");
      expect(r!.stdout.split("{")[0], "metrics once complete").toContain("mean/reward");
    },
  },
  { doc: "npx edgegym jobs results <id> -o out.jsonl", run: (ctx) => `npx edgegym jobs results ${job(ctx)} -o out.jsonl`, env: jobsEnv, check: (r, ctx) => (exits(r!, 0), expect(lines(ctx, "out.jsonl")).toHaveLength(40)) },
  { doc: "npx edgegym jobs results <id> -o out.jsonl --follow", run: (ctx) => `npx edgegym jobs results ${job(ctx)} -o out.jsonl --follow`, env: jobsEnv, check: (r, ctx) => (exits(r!, 0), expect(lines(ctx, "out.jsonl")).toHaveLength(40)) },
  {
    doc: "npx edgegym jobs cancel <id>",
    run: async (ctx) => (ctx.vars.set("big", await createJob(ctx, "example_multi_step", 1000)), `npx edgegym jobs cancel ${ctx.vars.get("big")}`),
    env: jobsEnv,
    check: (r) => (exits(r!, 0), expect(r!.stdout).toContain("cancelled")),
  },
  {
    doc: "npx edgegym jobs resume <id>",
    run: (ctx) => `npx edgegym jobs resume ${ctx.vars.get("big")}`,
    env: jobsEnv,
    check: async (r, ctx) => {
      exits(r!, 0);
      expect(r!.stdout).toMatch(/re-enqueued \d+ rollout\(s\)/);
      const done = await settled(ctx, ctx.vars.get("big") ?? "");
      expect(done).toMatchObject({ status: "completed", counts: { total: 5000, queued: 0 } });
    },
  },
  // Python: the NeMo Gym agent server and the GRPO example.
  { doc: "python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>", run: (ctx) => gw(ctx, "python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>"), env: async (ctx) => ({ EDGEGYM_TOKEN: (await ctx.gateway()).token }), background: true, check: (_r, ctx, run, env) => pythonAgent(ctx, run, env) },
  { doc: "EDGEGYM_TOKEN=... python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>", run: async (ctx) => (await gw(ctx, "EDGEGYM_TOKEN=... python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>")).replace("...", (await ctx.gateway()).token), background: true, check: (_r, ctx, run, env) => pythonAgent(ctx, run, env) },
  {
    doc: "python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway> --policy-base-url http://<head-node-ip>:9100/v1 --policy-model <policy.model_name> --token-ids --failures error",
    run: async (ctx) => (await gw(ctx, "python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway> --policy-base-url POLICY --policy-model edgegym-sim --token-ids --failures error")).replace("POLICY", await ctx.simulator()),
    env: async (ctx) => ({ EDGEGYM_TOKEN: (await ctx.gateway()).token }), // integrations/README.md: "EDGEGYM_TOKEN=<token> in the environment"
    background: true,
    check: async (_r, ctx, run, env) => {
      const agent = ctx.background(run, env);
      try {
        await agent.waitFor(/"listening": "http:\/\/127\.0\.0\.1:11000"/);
        const answer = await agentRun(agentRow(ctx, "mcqa"));
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(JSON.stringify(answer.body)).toContain('"generation_token_ids"');
      } finally {
        await agent.stop();
      }
    },
  },
  {
    doc: "python3 integrations/python/examples/grpo_batch.py --gateway http://127.0.0.1:8787 --data environments/example_multi_step/data/example.jsonl --environment example_multi_step --prompts 4 --group-size 8",
    run: async (ctx) => `python3 integrations/python/examples/grpo_batch.py --gateway ${(await ctx.gateway()).url} --data environments/example_multi_step/data/example.jsonl --environment example_multi_step --prompts 4 --group-size 8`,
    check: (r) => (exits(r!, 0), expect(r!.stdout.split("\n").filter((l) => l.includes('"reward"'))).toHaveLength(32)),
  },
  {
    doc: "python3 integrations/python/examples/grpo_batch.py --gateway … --data rows.jsonl --prompts 4 --group-size 8",
    run: async (ctx) => `python3 integrations/python/examples/grpo_batch.py --gateway ${(await ctx.gateway()).url} --data rows.jsonl --prompts 4 --group-size 8`,
    check: (r) => (exits(r!, 0), expect(r!.stdout.split("\n").filter((l) => l.includes('"reward"'))).toHaveLength(32)),
  },
  // A model of your own: the simulator stands in for the vLLM server.
  {
    doc: "npm run simulator -- --port 8000 --latency-ms 50",
    run: () => "npm run simulator -- --help",
    check: async (r, ctx) => {
      exits(r!, 0);
      for (const option of ["--error-rate", "--drop-rate", "--malformed-rate", "--reasoning"]) expect(r!.stdout).toContain(option);
      const models = json(await (await fetch(`${await ctx.simulator()}/models`)).text());
      expect(JSON.stringify(models)).toContain("edgegym-sim");
    },
  },
  {
    doc: "export EDGEGYM_MODEL_URL=http://my-vllm-host:8000/v1",
    run: async (ctx) =>
      `export EDGEGYM_MODEL_URL=${await ctx.simulator()}; export EDGEGYM_MODEL=Qwen/Qwen3-8B; export EDGEGYM_MODEL_API_KEY=...; npx edgegym collect -e mcqa -i data/mcqa.jsonl -o out/own-model.jsonl`,
    check: (r, ctx) => (exits(r!, 0), expect(rollouts(ctx, "out/own-model.jsonl")).toBe(5), expect(lines(ctx, "out/own-model.jsonl")[0]?.response).toMatchObject({ model: "Qwen/Qwen3-8B" })),
  },
];

/** Lines of a recipe that the entry named runs together with it. */
export const PART_OF: Record<string, string> = {
  "export EDGEGYM_MODEL=Qwen/Qwen3-8B": "export EDGEGYM_MODEL_URL=http://my-vllm-host:8000/v1",
  "export EDGEGYM_MODEL_API_KEY=...": "export EDGEGYM_MODEL_URL=http://my-vllm-host:8000/v1",
};
