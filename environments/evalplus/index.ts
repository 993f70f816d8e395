// Port of NeMo Gym's evalplus: the answer's last ```python block, completed onto the task's prompt, run on EvalPlus's base and plus inputs in the sandbox.
import type { Sandbox } from "../../contracts/sandbox.js";
import { allOutputText, defineEnvironment, type Environment, z } from "../sdk/index.js";
import { pyRepr, pyStrip } from "../sdk/python/index.js";
import { runProgram } from "../sdk/sandbox/program.js";
import { CHECK_SOURCE } from "./check.js";
import { HUMANEVAL_PLUS_JSONL } from "./data/humaneval_plus.js";
import { extractCodeStrict } from "./extract.js";

/** NeMo Gym's configs/evalplus.yaml: dataset humaneval, min_time_limit 1.0, gt_time_limit_factor 4.0 (Skills' defaults). */
export interface EvalPlusConfig {
  dataset: "humaneval" | "mbpp";
  minTimeLimit: number;
  gtTimeLimitFactor: number;
}
export const DEFAULT_CONFIG: EvalPlusConfig = { dataset: "humaneval", minTimeLimit: 1, gtTimeLimitFactor: 4 };

/** One EvalPlus task as evalplus.data.get_human_eval_plus() gives it (the fields check_correctness reads). */
export const Problem = z.object({
  task_id: z.string(),
  prompt: z.string(),
  entry_point: z.string(),
  canonical_solution: z.string(),
  base_input: z.array(z.array(z.unknown())),
  plus_input: z.array(z.array(z.unknown())),
  atol: z.number(),
});
export type Problem = z.output<typeof Problem>;

/**
 * A task and its JSON text as EvalPlus's data file has it: the sandbox gets the text, never a re-serialisation, since
 * JavaScript would turn an input 1.0 into 1 and Python's comparison tells a float from an int.
 */
export interface TaskText {
  problem: Problem;
  text: string;
}

/** One JSON line of HumanEvalPlus.jsonl / MbppPlus.jsonl, validated, with its text kept. */
export function parseTask(text: string): TaskText {
  return { problem: Problem.parse(JSON.parse(text)), text };
}

/** The tasks of a JSONL text by task_id. */
export function tasksOf(jsonl: string): Record<string, TaskText> {
  const lines = jsonl.split("\n").filter((line) => line.trim() !== "");
  return Object.fromEntries(lines.map((line) => parseTask(line)).map((task) => [task.problem.task_id, task]));
}

const BUNDLED = tasksOf(HUMANEVAL_PLUS_JSONL);

/** A row's own task: one line of EvalPlus's data file, as a string (checked here, kept as text: the echo and Python get it unchanged). */
const TaskLine = z.string().superRefine((text, ctx) => {
  try {
    parseTask(text);
  } catch (error) {
    const issues = error instanceof z.ZodError ? error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : String(error);
    ctx.addIssue({ code: "custom", message: `not an EvalPlus task line: ${issues}` });
  }
});

/** The sandbox's own ceiling on one run's wall time (local/sandbox/limits.ts CEILINGS). */
const WALL_CEILING_MS = 300_000;

const Checked = z.object({ base: z.tuple([z.string().nullable(), z.array(z.number())]), plus: z.tuple([z.string().nullable(), z.array(z.number())]) });
type Checked = z.output<typeof Checked>;

/** check_correctness for one task: the checker program writes result.json; no file means it was stopped (an error, as ray.get's). */
async function checkCorrectness(sandbox: Sandbox, task: TaskText, solution: string, config: EvalPlusConfig): Promise<Checked> {
  const args = [config.dataset, String(config.minTimeLimit), String(config.gtTimeLimitFactor)];
  const { run, result } = await runProgram(sandbox, {
    files: { "check.py": CHECK_SOURCE, "problem.json": task.text, "solution.py": solution },
    command: ["python", "check.py", "problem.json", "solution.py", "result.json", ...args],
    resultFile: "result.json",
    limits: { wallMs: WALL_CEILING_MS },
  });
  if (result === undefined) throw new Error(`evalplus: the checker wrote no result (${run.stopped ?? `exit ${run.exitCode}`}): ${run.stderr.slice(-2000)}`);
  return Checked.parse(JSON.parse(result));
}

export function evalPlusEnvironment(config: EvalPlusConfig = DEFAULT_CONFIG, dataset: Record<string, TaskText> = BUNDLED): Environment {
  return defineEnvironment({
    name: "evalplus",
    description: "Function completion (HumanEval+): the answer's last ```python block must pass EvalPlus's base and plus tests (run in a sandbox).",
    task: z.object({
      verifier_metadata: z.object({ task_id: z.unknown().optional(), problem: TaskLine.optional() }).catchall(z.unknown()).nullish(),
    }),
    sandbox: { runtime: "python", limits: { wallMs: WALL_CEILING_MS, cpuSeconds: 120, memoryMib: 4096, processes: 64 } },
    tools: {},
    verify: async (request, ctx) => {
      const modelOut = allOutputText(request.response);
      const metadata = request.verifier_metadata ?? {};
      const none = {
        extracted_model_output: null,
        extracted_model_code: null,
        base_status: null,
        plus_status: null,
        is_correct: false,
        is_correct_plus: false,
        metadata: null,
      };
      const taskId = metadata.task_id;
      if (taskId === undefined || taskId === null) return { reward: 0, ...none, metadata: { error: "missing task_id in verifier_metadata" } };
      // A row may carry its own EvalPlus task line (an MBPP+ or newer HumanEval+ one); otherwise the bundled one of its task_id.
      const task =
        metadata.problem !== undefined
          ? parseTask(metadata.problem)
          : typeof taskId === "string" && Object.hasOwn(dataset, taskId)
            ? dataset[taskId]
            : undefined;
      if (!task) return { reward: 0, ...none, metadata: { error: `unknown task_id ${pyRepr(taskId)} for dataset ${pyRepr(config.dataset)}` } };
      if (!pyStrip(modelOut)) return { reward: 0, ...none };
      const code = extractCodeStrict(modelOut, "python");
      if (!code) return { reward: 0, ...none, extracted_model_output: modelOut };
      // evaluate()'s completion-style prepend: the prompt carries the imports and the signature the body needs.
      const { prompt } = task.problem;
      const solution = code.startsWith(prompt) ? code : prompt + code;
      const sandbox = ctx.sandbox;
      if (!sandbox) throw new Error("evalplus: no sandbox (the environment declares one; the runtime gave none)");
      const result = await checkCorrectness(sandbox, task, solution, config);
      const isCorrect = result.base[0] === "pass";
      const isCorrectPlus = isCorrect && result.plus[0] === "pass";
      return {
        reward: isCorrectPlus ? 1 : 0,
        extracted_model_output: modelOut,
        extracted_model_code: code,
        base_status: result.base[0],
        plus_status: result.plus[0],
        is_correct: isCorrect,
        is_correct_plus: isCorrectPlus,
        metadata: { base_details: result.base[1], plus_details: result.plus[1] },
      };
    },
  });
}

export default evalPlusEnvironment();
