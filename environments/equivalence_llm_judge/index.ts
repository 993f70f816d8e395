// Port of NeMo Gym's equivalence_llm_judge: an LLM judge decides whether the answer is equivalent to expected_answer.
import { defineEnvironment, z, type Environment } from "../sdk/index.js";
import { DEFAULT_CONFIG, type EquivalenceJudgeConfig } from "./config.js";
import { verifyEquivalence } from "./verify.js";

/** The environment with a given server config (prompt, labels, swap check, regexes: NeMo Gym's LLMJudgeResourcesServerConfig). */
export function equivalenceLlmJudgeEnvironment(config: EquivalenceJudgeConfig = DEFAULT_CONFIG): Environment {
  return defineEnvironment({
    name: "equivalence_llm_judge",
    description: "Short answers judged by an LLM against expected_answer: the judge must answer [[A=B]].",
    // NeMo Gym's LLMJudgeRunRequest: MCQA-compatible fields, only the expected answer is graded.
    task: z.object({
      uuid: z.union([z.string(), z.number()]).nullish(),
      expected_answer: z.string().nullish(),
      options: z.array(z.record(z.string(), z.string())).nullish(),
      metadata: z.record(z.string(), z.unknown()).nullish(),
      template_metadata: z.record(z.string(), z.unknown()).nullish(),
    }),
    tools: {},
    verify: (request, ctx) => verifyEquivalence(request, ctx.judge, config),
  });
}

export default equivalenceLlmJudgeEnvironment();
