// Port of NeMo Gym's math_with_judge: math answers checked symbolically (math_verify's rules), an LLM judge as fallback.
import { defineEnvironment, z, type Environment } from "../sdk/index.js";
import { mathKeyMetrics, mathMetrics } from "./metrics.js";
import { DEFAULT_CONFIG, verifyMathAnswer, type MathWithJudgeConfig } from "./verify.js";

/** The environment with a given server config (NeMo Gym's should_use_judge, judge_responses_create_params). */
export function mathWithJudgeEnvironment(config: MathWithJudgeConfig = DEFAULT_CONFIG): Environment {
  return defineEnvironment({
    name: "math_with_judge",
    description: "Math answers: symbolic equivalence with expected_answer (math_verify's rules), an LLM judge when that fails.",
    task: z.object({ question: z.string(), expected_answer: z.string() }),
    tools: {},
    verify: (request, ctx) => verifyMathAnswer(request, ctx.judge, config),
    computeMetrics: mathMetrics,
    keyMetrics: mathKeyMetrics,
  });
}

export default mathWithJudgeEnvironment();
