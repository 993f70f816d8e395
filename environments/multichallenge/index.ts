// Port of NeMo Gym's multichallenge: an LLM judge answers each rubric question YES/NO about the final reply.
import { defineEnvironment, z, type SimpleEnvironment } from "../sdk/index.js";
import { DEFAULT_CONFIG, type MultiChallengeConfig } from "./config.js";
import { aggregateScores, countPassed, evaluateItem, type RubricEvaluation } from "./rubric.js";
import { buildContext, responseText } from "./text.js";

/** NeMo Gym's MultiChallengeRunRequest (extra fields allowed and echoed). */
const Task = z.object({
  uuid: z.union([z.string(), z.number().int()]).nullish(),
  task_id: z.number().int().nullish(),
  rubric: z.array(z.record(z.string(), z.unknown())).nullish(),
  context: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/** The environment with a server config (NeMo Gym's MultiChallengeConfig; configs/multichallenge.yaml by default). */
export function multichallengeEnvironment(config: MultiChallengeConfig = DEFAULT_CONFIG): SimpleEnvironment {
  return defineEnvironment({
    name: "multichallenge",
    description: "Multi-turn conversations: an LLM judge answers each rubric question about the final reply; the reward is the share passed.",
    task: Task,
    tools: {},
    verify: async (request, ctx) => {
      const generated = responseText(request.response);
      const metadata = request.metadata && Object.keys(request.metadata).length > 0 ? request.metadata : null;
      let context = request.context || "";
      if (!context && metadata && Object.hasOwn(metadata, "messages")) context = buildContext(metadata.messages);
      let rubric: unknown = request.rubric?.length ? request.rubric : [];
      if (!(Array.isArray(rubric) && rubric.length > 0) && metadata && Object.hasOwn(metadata, "rubric")) rubric = metadata.rubric;
      if (!Array.isArray(rubric)) throw new TypeError("metadata.rubric must be a list of rubric items");
      const items: unknown[] = rubric;
      let evaluations: RubricEvaluation[];
      if (config.parallelEvaluation && items.length > 1) {
        evaluations = await Promise.all(items.map((item) => evaluateItem(ctx.judge, config, item, context, generated)));
      } else {
        evaluations = [];
        for (const item of items) evaluations.push(await evaluateItem(ctx.judge, config, item, context, generated));
      }
      return {
        // NeMo Gym pops the rubric from the echoed request (an undefined key is left out of the JSON answer).
        rubric: undefined,
        reward: aggregateScores(evaluations, config.aggregationMode),
        context,
        generated_response: generated,
        rubric_evaluations: evaluations,
        aggregation_mode: config.aggregationMode,
        num_passed: countPassed(evaluations),
        num_total: evaluations.length,
      };
    },
  });
}

export default multichallengeEnvironment();
