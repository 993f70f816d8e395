// Port of NeMo Gym's mrcr: the answer must start with the task's random prefix; the reward is difflib's ratio to the expected answer.
import { allOutputText, defineEnvironment, z } from "../sdk/index.js";
import { pyStrip } from "../sdk/python/text.js";
import { SequenceMatcher } from "../sdk/python/difflib.js";

const Task = z.object({
  expected_answer: z.string(),
  random_string_to_prepend: z.string(),
  n_needles: z.number().int(),
  n_tokens: z.number().int(),
});

/** NeMo Gym's `_grade` (OpenAI's official MRCR grader): 0 without the prefix, else the ratio with the prefix removed. */
export function grade(response: string, expectedAnswer: string, prefix: string): number {
  if (!response.startsWith(prefix)) return 0.0;
  const strippedResponse = response.slice(prefix.length);
  const strippedAnswer = expectedAnswer.startsWith(prefix) ? expectedAnswer.slice(prefix.length) : expectedAnswer;
  return new SequenceMatcher(strippedResponse, strippedAnswer).ratio();
}

export default defineEnvironment({
  name: "mrcr",
  description:
    "OpenAI MRCR (multi-round coreference over a long conversation): the answer must start with random_string_to_prepend; the reward is difflib's SequenceMatcher ratio to expected_answer, the prefix removed from both.",
  task: Task,
  tools: {},
  verify: (request) => {
    const response = pyStrip(allOutputText(request.response));
    const ratio = grade(response, request.expected_answer, request.random_string_to_prepend);
    return { reward: ratio, prefix_matched: response.startsWith(request.random_string_to_prepend), seq_match_ratio: ratio };
  },
});
