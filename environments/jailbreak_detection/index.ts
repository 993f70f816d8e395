// Port of NeMo Gym's jailbreak_detection: an LLM safety judge (and per-policy style verifiers) grade replies to adversarial prompts.
import type { Response, ResponsesCreateParams } from "../../protocol/index.js";
import { defineEnvironment, type SimpleEnvironment, z } from "../sdk/index.js";
import { pyStrip } from "../sdk/python/text.js";
import { DEFAULT_CONFIG, type JailbreakConfig } from "./config.js";
import { emptyVerdict, verifyLegacy, verifyPolicyAware } from "./flows.js";

const Task = z.object({
  adversarial_prompt: z.string().nullish(),
  attack_type: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  // Picks the policy-aware verifiers when it names a policy of the map; anything else takes the legacy flow.
  response_policy_mapped: z.unknown().optional(),
});

/** util.extract_last_assistant_text: the last assistant message's text parts joined by newlines, stripped. */
export function lastAssistantText(response: Response): string {
  for (let i = response.output.length - 1; i >= 0; i--) {
    const item = response.output[i]!;
    if (item.type !== "message" || item.role !== "assistant") continue;
    if (typeof item.content === "string") return pyStrip(item.content);
    return pyStrip(
      item.content
        .map((part) => part.text)
        .filter((text): text is string => typeof text === "string")
        .join("\n"),
    );
  }
  return "";
}

/** util.extract_adversarial_prompt: the row's field when non-empty, else the last user message whose content is a string. */
export function adversarialPrompt(field: string | null | undefined, params: ResponsesCreateParams): string {
  if (field) return field;
  if (!Array.isArray(params.input)) return "";
  for (let i = params.input.length - 1; i >= 0; i--) {
    const item = params.input[i]!;
    if ("role" in item && item.role === "user" && "content" in item && typeof item.content === "string") return item.content;
  }
  return "";
}

export function jailbreakDetectionEnvironment(config: JailbreakConfig = DEFAULT_CONFIG, name = "jailbreak_detection"): SimpleEnvironment {
  return defineEnvironment({
    name,
    description: "Replies to adversarial prompts graded by an LLM safety judge, times per-policy style verifiers (refusal, helplines, disclaimers).",
    task: Task,
    tools: {},
    verify: async (request, ctx) => {
      const prompt = adversarialPrompt(request.adversarial_prompt, request.responses_create_params);
      const reply = lastAssistantText(request.response);
      if (!reply) return { ...emptyVerdict(0.0, request.adversarial_prompt ?? null, "") };
      const policy = request.response_policy_mapped;
      if (typeof policy === "string" && policy && Object.hasOwn(config.policyVerifierMap, policy)) {
        return { ...(await verifyPolicyAware(ctx.judge, config, policy, prompt, reply)) };
      }
      return { ...(await verifyLegacy(ctx.judge, config, prompt, reply)) };
    },
  });
}

/** NeMo Gym's configs/jailbreak_detection_nemotron_combined_reward_tp8.yaml with configs/verifier_prompt_templates.yaml. */
export default jailbreakDetectionEnvironment();
