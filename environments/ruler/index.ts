// Port of NeMo Gym's ruler: the share of expected strings found in the answer (qa_1/qa_2: any one of them), case-insensitively.
import { allOutputText, defineEnvironment, z } from "../sdk/index.js";
import { pyStrip } from "../sdk/python/text.js";

/** The subsets NeMo Gym's response names as fields (the subset's own field repeats the reward). */
const SUBSETS = [
  "cwe",
  "fwe",
  "niah_multikey_1",
  "niah_multikey_2",
  "niah_multikey_3",
  "niah_multiquery",
  "niah_multivalue",
  "niah_single_1",
  "niah_single_2",
  "niah_single_3",
  "qa_1",
  "qa_2",
  "vt",
] as const;

const Task = z.object({
  outputs: z.array(z.string()),
  length: z.number().int(),
  subset: z.string(),
});

/** `string_match_all_single`: the share of refs contained in pred (ZeroDivisionError on no refs, as in Python). */
export function stringMatchAll(pred: string, refs: string[]): number {
  if (!refs.length) throw new Error("division by zero: ruler task has no outputs");
  const lower = pred.toLowerCase();
  return refs.reduce((sum, ref) => sum + (lower.includes(ref.toLowerCase()) ? 1.0 : 0.0), 0) / refs.length;
}

/** `string_match_part_single`: 1.0 if any ref is contained in pred (ValueError from max() on no refs). */
export function stringMatchPart(pred: string, refs: string[]): number {
  if (!refs.length) throw new Error("max() arg is an empty sequence: ruler task has no outputs");
  const lower = pred.toLowerCase();
  return refs.some((ref) => lower.includes(ref.toLowerCase())) ? 1.0 : 0.0;
}

export default defineEnvironment({
  name: "ruler",
  description:
    "NVIDIA RULER long-context subsets: the reward is the share of `outputs` found (case-insensitively) in the answer; for qa_1 and qa_2, 1 if any one is found.",
  task: Task,
  tools: {},
  verify: (request) => {
    const prediction = pyStrip(allOutputText(request.response));
    const grade = request.subset === "qa_1" || request.subset === "qa_2" ? stringMatchPart : stringMatchAll;
    const reward = grade(prediction, request.outputs);
    const fields: Record<string, number | null> = Object.fromEntries(SUBSETS.map((subset) => [subset, null]));
    // Pydantic ignores a subset that is not one of its fields; a known one carries the reward.
    if ((SUBSETS as readonly string[]).includes(request.subset)) fields[request.subset] = reward;
    return { reward, ...fields };
  },
});
