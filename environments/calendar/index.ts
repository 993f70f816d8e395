// Port of NeMo Gym's calendar: the assistant's last answer must hold a JSON list of events satisfying the expected calendar.
import { defineEnvironment, z } from "../sdk/index.js";
import type { Response } from "../../protocol/index.js";
import { gradeAssistantResponse } from "./grade.js";
import { PyError, type Json } from "./python.js";

/**
 * The text NeMo Gym grades: the first content part of the *last* output item, whatever its type. A reasoning
 * item with reasoning text counts too (a model cut off while thinking is graded on its thoughts); a function
 * call or tool output has no content and gives "".
 */
export function lastOutputText(response: Response): string {
  const last = response.output.at(-1);
  if (!last || (last.type !== "message" && last.type !== "reasoning")) return "";
  const content = last.content;
  if (!content || content.length === 0) return "";
  // `content[0].text` in NeMo Gym: a refusal part (or a plain string's first character) has no .text and fails the request.
  const first = typeof content === "string" ? undefined : content[0]!.text;
  if (first === undefined) throw new PyError("AttributeError", `'${last.type}' content has no attribute 'text'`);
  return first;
}

export default defineEnvironment({
  name: "calendar",
  description:
    "Multi-turn calendar scheduling: the final JSON list of events must match the expected events' durations, windows and constraints without overlaps.",
  task: z.object({ exp_cal_state: z.record(z.string(), z.json()) }),
  tools: {},
  verify: (request) => {
    const text = lastOutputText(request.response);
    if (!text) return { reward: 0 };
    let reward = 0;
    try {
      [reward] = gradeAssistantResponse(text, request.exp_cal_state as { [eventId: string]: Json });
    } catch {
      // NeMo Gym's verify also catches anything the grader raises outside its own try.
      reward = 0;
    }
    return { reward };
  },
});
