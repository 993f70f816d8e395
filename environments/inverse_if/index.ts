// Port of NeMo Gym's inverse_if: each rubric criterion judged PASS/FAIL by an LLM with the task's own prompt, scores averaged.
import { defineEnvironment, z, type Judge, type SimpleEnvironment } from "../sdk/index.js";
import { DEFAULT_CONFIG, type InverseIfConfig } from "./config.js";
import { aggregateScores, countPassed, evaluateCriterion, type Grading, type RubricEvaluation } from "./rubric.js";
import { responseText } from "./verdict.js";

/** NeMo Gym's InverseIFRunRequest (extra fields allowed and echoed). */
const Task = z.object({
  uuid: z.union([z.string(), z.number().int()]).nullish(),
  task_id: z.number().int().nullish(),
  prompt: z.string().nullish(),
  rubric: z.array(z.record(z.string(), z.unknown())).nullish(),
  reference_response: z.string().nullish(),
  judge_prompt_template: z.string().nullish(),
  judge_system_prompt: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
type Task = z.output<typeof Task>;

/** `metadata.get(key, fallback)`, a str where NeMo Gym's response model needs one. */
function fromMetadata(metadata: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(metadata, key) ? metadata[key] : key === "rubric" ? [] : "";
}

/** The task's prompt, reference and rubric: top-level fields, else (when empty) the metadata's. */
function taskFields(task: Task): { prompt: string; reference: string; rubric: unknown[] } {
  let prompt: unknown = task.prompt || "";
  let reference: unknown = task.reference_response || "";
  let rubric: unknown = task.rubric?.length ? task.rubric : [];
  const metadata = task.metadata;
  if (metadata && Object.keys(metadata).length > 0) {
    if (!prompt) prompt = fromMetadata(metadata, "prompt");
    if (!reference) reference = fromMetadata(metadata, "reference_response");
    if (!(Array.isArray(rubric) && rubric.length > 0)) rubric = fromMetadata(metadata, "rubric");
  }
  if (typeof prompt !== "string") throw new TypeError("metadata.prompt must be a string");
  if (typeof reference !== "string") throw new TypeError("metadata.reference_response must be a string");
  if (!Array.isArray(rubric)) throw new TypeError("metadata.rubric must be a list of criteria");
  return { prompt, reference, rubric };
}

async function judgeAll(judge: Judge, config: InverseIfConfig, rubric: unknown[], grading: Grading): Promise<RubricEvaluation[]> {
  if (config.parallelEvaluation && rubric.length > 1) return Promise.all(rubric.map((item) => evaluateCriterion(judge, config, item, grading)));
  const evaluations: RubricEvaluation[] = [];
  for (const item of rubric) evaluations.push(await evaluateCriterion(judge, config, item, grading));
  return evaluations;
}

/** The environment with a server config (NeMo Gym's InverseIFConfig; configs/inverse_if.yaml by default). */
export function inverseIfEnvironment(config: InverseIfConfig = DEFAULT_CONFIG): SimpleEnvironment {
  return defineEnvironment({
    name: "inverse_if",
    description: "Instruction following graded by an LLM judge, one rubric criterion at a time: the reward is the share that PASS.",
    task: Task,
    tools: {},
    verify: async (request, ctx) => {
      const { prompt, reference, rubric } = taskFields(request);
      const grading: Grading = {
        prompt,
        modelResponse: responseText(request.response),
        standardResponse: reference,
        template: request.judge_prompt_template || config.defaultJudgePromptTemplate,
        systemPrompt: request.judge_system_prompt || config.defaultJudgeSystemPrompt,
      };
      const evaluations = await judgeAll(ctx.judge, config, rubric, grading);
      return {
        // NeMo Gym pops these from the echoed request (undefined keys are left out of the JSON answer).
        rubric: undefined,
        judge_prompt_template: undefined,
        judge_system_prompt: undefined,
        reward: aggregateScores(
          evaluations.map((e) => e.score),
          config.aggregationMode,
        ),
        prompt,
        generated_response: grading.modelResponse,
        reference_response: reference,
        rubric_evaluations: evaluations,
        aggregation_mode: config.aggregationMode,
        num_passed: countPassed(evaluations),
        num_total: evaluations.length,
      };
    },
  });
}

export default inverseIfEnvironment();
