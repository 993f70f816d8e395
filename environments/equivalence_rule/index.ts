// Port of NeMo Gym's equivalence_rule: the response's text against expected_answer by a rule (exact by default).
import type { Response } from "../../protocol/index.js";
import { defineEnvironment, type SimpleEnvironment, z } from "../sdk/index.js";
import { grade, type GradingRule } from "./grade.js";

const Task = z.object({ expected_answer: z.string() });

/** Every output_text of every message item, joined with nothing between (any role, as NeMo Gym reads it). */
export function responseText(response: Response): string {
  const parts: string[] = [];
  for (const item of response.output) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) if (part.type === "output_text") parts.push(part.text ?? "");
  }
  return parts.join("");
}

/** The environment under one `grading_rule` (NeMo Gym's server config); name it apart if it is not the default. */
export function equivalenceRuleEnvironment(rule: GradingRule = "exact", name = "equivalence_rule"): SimpleEnvironment {
  return defineEnvironment({
    name,
    description: `The response's text against expected_answer after strip, lower-case and whitespace collapsing (${rule}).`,
    task: Task,
    tools: {},
    verify: (request) => {
      const score = grade(responseText(request.response), request.expected_answer, rule);
      return { reward: score, equivalence_score: score };
    },
  });
}

/** NeMo Gym's configs/lc.yaml: `grading_rule: exact`. */
export default equivalenceRuleEnvironment();
