// The documented commands that need no running gateway (datasets, collect with its own emulation, a new environment,
// small tools), in the README's order, each with what the README says it does.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { exists, exits, json, lines, rollouts } from "./checks.js";
import { AWS_LOCAL } from "./aws.table.js";
import type { DocContext } from "./context.js";
import type { Entry } from "./entry.js";

const ASSETS = "functions/gateway/dashboard/assets.generated.ts";
const EXAMPLE = "environments/example_single_tool_call/data/example.jsonl";

/** A folder outside the clone (beside it, removed with it), for the commands run "from any folder". */
function outside(ctx: DocContext): string {
  const dir = `${ctx.dir}.outside`;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The shell's PATH with npm's bin folder under the clone's prefix first (where `npm link` puts `edgegym`). */
const onPath = (ctx: DocContext) => ({ PATH: `${path.join(ctx.dir, ".npm-prefix", "bin")}${path.delimiter}${process.env.PATH}` });

export const OFFLINE: Entry[] = [
  // Datasets: validate → collate → render → collect → export (data/ made from the bundled examples).
  {
    doc: "npx edgegym dataset validate data/mcqa.jsonl -e mcqa",
    check: (r) => expect(exits(r, 0).stdout).toMatch(/data\/mcqa\.jsonl: 5 row\(s\), 0 bad; checked 5 against mcqa/),
  },
  {
    doc: "npx edgegym dataset validate data/strings.jsonl data/strings-val.jsonl -e string_match",
    check: (r, ctx) => {
      const { stdout, stderr } = exits(r, 1);
      expect(stdout + stderr).toContain("data/strings.jsonl:7: expected_answer: Invalid input: expected string, received undefined");
      ctx.fixStrings(); // the reader fixes the row before step 2
    },
  },
  {
    doc: "npx edgegym dataset collate -o prepared -d mcqa:train:data/mcqa.jsonl:4 -d string_match:train:data/strings.jsonl -d string_match:validation:data/strings-val.jsonl",
    check: (r, ctx) => {
      exits(r, 0);
      exists(ctx, "prepared/train_metrics.json", "prepared/validation_metrics.json");
      const train = lines(ctx, "prepared/train.jsonl");
      expect(train).toHaveLength(5 * 4 + 5);
      expect(new Set(train.map((row) => (row.agent_ref as { name: string }).name))).toEqual(new Set(["mcqa_simple_agent", "string_match_simple_agent"]));
      expect(lines(ctx, "prepared/validation.jsonl")).toHaveLength(2);
    },
  },
  {
    doc: "npx edgegym dataset render -i raw.jsonl --prompt-config prompt.yaml -o rendered.jsonl",
    check: (r, ctx) => {
      exits(r, 0);
      expect(JSON.stringify(lines(ctx, "rendered.jsonl")[0])).toContain("Question: What is the capital of France?");
    },
  },
  {
    doc: "npx edgegym collect -i prepared --split train -o out/train.jsonl --num-repeats mcqa=8,_default=2 --num-repeats-add-seed --temperature 0.8 --top-p 0.95 --max-output-tokens 4096",
    check: (r, ctx) => {
      expect(exits(r, 0).stdout).toContain("mean/reward");
      exists(ctx, "out/train.metrics.json", "out/train_aggregate_metrics.json");
      expect(rollouts(ctx, "out/train.jsonl")).toBe(5 * 4 * 8 + 5 * 2);
      const params = lines(ctx, "out/train.jsonl")[0]?.responses_create_params;
      expect(params).toMatchObject({ temperature: 0.8, top_p: 0.95, max_output_tokens: 4096, metadata: { extra_body: expect.stringContaining("seed") } });
    },
  },
  // With the simulator as the model, mcqa and string_match score 0: nothing is kept, the summary says why, exit 1.
  {
    doc: "npx edgegym export --format sft -i out/train.jsonl -o sft.jsonl --min-reward 1",
    check: (r) => expect(json(exits(r, 1).stdout)).toMatchObject({ read: 170, written: 0, sft: { below_min_reward: 170 } }),
  },
  {
    doc: "npx edgegym export --format dpo -i out/train.jsonl -o dpo.jsonl --pairing best-worst --min-margin 0.5",
    check: (r) => expect(json(exits(r, 1).stdout)).toMatchObject({ read: 170, written: 0, dpo: { tasks: 10, no_reward_spread: 10 } }),
  },
  { doc: "npx edgegym reverify -i out/train.jsonl", check: (r) => expect(exits(r, 0).stdout).not.toMatch(/reward .* -> /) },
  {
    doc: "npx edgegym collect --environment example_multi_step --input environments/example_multi_step/data/example.jsonl --output out/multi_step.jsonl --num-repeats 8",
    check: (r, ctx) => {
      expect(exits(r, 0).stdout).toContain("mean/reward");
      expect(rollouts(ctx, "out/multi_step.jsonl")).toBe(5 * 8);
      exists(ctx, "out/multi_step.metrics.json", "out/multi_step_aggregate_metrics.json");
    },
  },
  // Where to run it: npx finds the project's command in the checkout; elsewhere it would ask the registry (offline here).
  {
    doc: "npx edgegym …",
    run: (ctx) => `npx edgegym --help && cd ${outside(ctx)} && npx edgegym --help`,
    check: (r) => {
      expect(r.stdout).toMatch(/^Usage: edgegym /);
      expect(r.code, "outside the checkout npx does not find it").not.toBe(0);
      expect(r.stdout.match(/Usage: edgegym /g)).toHaveLength(1);
    },
  },
  // `npm link` with npm's prefix in the clone (not the machine's global folder): `edgegym` on the PATH, from any folder.
  {
    doc: "npm link",
    env: (ctx) => ({ npm_config_prefix: path.join(ctx.dir, ".npm-prefix") }),
    check: async (r, ctx) => {
      expect(exits(r, 0).stderr).not.toMatch(/ERR!/);
      const found = await ctx.run(
        `cd ${outside(ctx)} && command -v edgegym && edgegym dataset validate ${ctx.dir}/${EXAMPLE} -e example_single_tool_call`,
        onPath(ctx),
      );
      expect(exits(found, 0).stdout).toContain(path.join(ctx.dir, ".npm-prefix", "bin", "edgegym"));
      expect(found.stdout).toMatch(/5 row\(s\), 0 bad/);
    },
  },
  {
    doc: "npm unlink -g edgegym",
    env: (ctx) => ({ npm_config_prefix: path.join(ctx.dir, ".npm-prefix") }),
    check: async (r, ctx) => {
      exits(r, 0);
      const gone = await ctx.run(`cd ${outside(ctx)} && command -v edgegym`, onPath(ctx));
      expect(gone.code, gone.stdout).toBe(1);
    },
  },
  {
    // From another folder, its paths relative to that folder.
    doc: "node <checkout>/bin/edgegym.js",
    run: (ctx) =>
      `cd ${outside(ctx)} && cp ${ctx.dir}/${EXAMPLE} rows.jsonl && node ${ctx.dir}/bin/edgegym.js dataset validate rows.jsonl -e example_single_tool_call`,
    check: (r) => expect(exits(r, 0).stdout).toMatch(/^rows\.jsonl: 5 row\(s\), 0 bad/m),
  },
  // Write your own environment.
  {
    doc: "npx edgegym init capital_quiz",
    check: (r, ctx) => {
      exits(r, 0);
      exists(ctx, ...["index.ts", "data/example.jsonl", "README.md"].map((f) => `environments/capital_quiz/${f}`), "tests/environments/capital_quiz.test.ts");
    },
  },
  { doc: "npx edgegym env test capital_quiz", check: (r) => void exits(r, 0) },
  {
    // Its tools as a row offers them: the scaffold's tools, the JSON schema from the zod parameters.
    doc: "npx edgegym env schema capital_quiz",
    check: (r, ctx) => {
      const tools = JSON.parse(exits(r, 0).stdout) as { type: string; name: string; parameters: { type: string } }[];
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) expect(tool).toMatchObject({ type: "function", parameters: { type: "object" } });
      const row = lines(ctx, "environments/capital_quiz/data/example.jsonl")[0] as { responses_create_params: { tools: unknown } };
      expect(tools, "the tools the scaffold's own rows offer").toEqual(row.responses_create_params.tools);
    },
  },
  {
    // A skeleton row appended to the data: the tools, and <placeholders> to fill in.
    doc: "npx edgegym env schema capital_quiz --row >> environments/capital_quiz/data/example.jsonl",
    check: (r, ctx) => {
      exits(r, 0);
      const rows = lines(ctx, "environments/capital_quiz/data/example.jsonl");
      const skeleton = rows.at(-1) as { responses_create_params: { input: unknown; tools: unknown[] } };
      expect(skeleton.responses_create_params.tools.length).toBeGreaterThan(0);
      expect(JSON.stringify(skeleton)).toMatch(/<[^>]+>/);
    },
  },
  // Small tools.
  { doc: "openssl rand -hex 32", check: (r) => expect(exits(r, 0).stdout).toMatch(/^[0-9a-f]{64}\n$/) },
  { doc: "python3 -m unittest discover -s integrations/tests -t integrations/tests", check: (r) => expect(exits(r, 0).stderr).toMatch(/\nOK\s*$/) },
  {
    doc: "npm run gen:dashboard",
    check: (r, ctx) => {
      exits(r, 0);
      const made = readFileSync(`${ctx.dir}/${ASSETS}`, "utf8");
      expect(made, "the committed dashboard assets are what gen:dashboard makes").toBe(readFileSync(`${PROJECT_ROOT}/${ASSETS}`, "utf8"));
    },
  },
  // A model of your own: the simulator stands in for the vLLM server. (Not beside `npm run dev`: a collect without
  // --url and a running dev in one checkout share .edgegym/state, and the collect hangs on SQLITE_BUSY.)
  {
    doc: "npm run simulator -- --port 8000 --latency-ms 50",
    run: () => "npm run simulator -- --help",
    check: async (r, ctx) => {
      exits(r, 0);
      for (const option of ["--error-rate", "--drop-rate", "--malformed-rate", "--reasoning"]) expect(r.stdout).toContain(option);
      const models = json(await (await fetch(`${await ctx.simulator()}/models`)).text());
      expect(JSON.stringify(models)).toContain("edgegym-sim");
    },
  },
  {
    doc: "export EDGEGYM_MODEL_URL=http://my-vllm-host:8000/v1",
    run: async (ctx) =>
      `export EDGEGYM_MODEL_URL=${await ctx.simulator()}; export EDGEGYM_MODEL=Qwen/Qwen3-8B; export EDGEGYM_MODEL_API_KEY=...; npx edgegym collect -e mcqa -i data/mcqa.jsonl -o out/own-model.jsonl`,
    check: (r, ctx) => {
      exits(r, 0);
      expect(rollouts(ctx, "out/own-model.jsonl")).toBe(5);
      expect(lines(ctx, "out/own-model.jsonl")[0]?.response).toMatchObject({ model: "Qwen/Qwen3-8B" });
    },
  },
  // The AWS path on this machine (README "On this machine").
  ...AWS_LOCAL,
];
