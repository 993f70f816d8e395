// Port of NeMo Gym's string_match: extract a free-form answer (boxed, "Answer:", last line, whole text) and grade it.
import { defineEnvironment, z } from "../sdk/index.js";
import { assistantText, extractAnswer } from "./extract.js";
import { answersMatch } from "./grade.js";

/** Pydantic's lax bool: true/false, 0/1, and the strings it accepts ("yes", "off", "t"…). */
const LaxBool = z.preprocess((value) => {
  if (typeof value === "number" && (value === 0 || value === 1)) return value === 1;
  if (typeof value !== "string") return value;
  const lower = value.toLowerCase();
  if (["1", "on", "t", "true", "y", "yes"].includes(lower)) return true;
  if (["0", "off", "f", "false", "n", "no"].includes(lower)) return false;
  return value;
}, z.boolean());

const Task = z.object({
  expected_answer: z.string(),
  extraction_mode: z.enum(["boxed", "final_answer", "last_line", "full_response"]).default("final_answer"),
  case_sensitive: LaxBool.default(false),
  // Carried for the dataset, never read by the verifier.
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

export default defineEnvironment({
  name: "string_match",
  description: "Free-form answers: the extracted answer must match expected_answer (case-insensitive grader unless case_sensitive).",
  task: Task,
  tools: {},
  verify: (request) => {
    const extracted = extractAnswer(assistantText(request.response), request.extraction_mode);
    const reward = extracted !== null && request.expected_answer ? answersMatch(extracted, request.expected_answer, request.case_sensitive) : 0.0;
    return { reward, expected_answer: request.expected_answer, extracted_answer: extracted };
  },
});
