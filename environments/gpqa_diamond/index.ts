// Port of NeMo Gym's gpqa_diamond: mcqa's request, with GPQA's own letter extraction (last \boxed{} or "Answer: X").
import { allOutputText, defineEnvironment, passAtK } from "../sdk/index.js";
import { pythonFindall } from "../sdk/python/findall.js";
import { pyLen, pyStrip } from "../sdk/python/text.js";
import { allowedLetters } from "../sdk/choices/grading.js";
import { letterFromTemplate, Task } from "../sdk/choices/template.js";

/** Python's str.isupper(): at least one cased character and every cased one upper-case. */
function pyIsUpper(text: string): boolean {
  return /\p{Uppercase}/u.test(text) && !/[\p{Lowercase}\p{Lt}]/u.test(text);
}

/** NeMo Gym's gpqa_diamond extract_letter: the last \boxed{...}'s letter, else the last "Answer: X". */
export function extractLetter(text: string): string | null {
  const boxed = pythonFindall(String.raw`\\boxed\{([^}]*)\}`, text, false) as string[];
  const lastBoxed = boxed[boxed.length - 1];
  if (lastBoxed !== undefined) {
    const extracted = pyStrip(lastBoxed);
    if (pyLen(extracted) === 1 && pyIsUpper(extracted)) return extracted;
    const letters = pythonFindall(String.raw`\b([A-Z])\b`, extracted, false) as string[];
    const lastLetter = letters[letters.length - 1];
    if (lastLetter !== undefined) return pyStrip(lastLetter);
  }
  const answers = pythonFindall(String.raw`(?i)[\*\_]{0,2}Answer[\*\_]{0,2}\s*:[\s\*\_]{0,2}\s*([A-Z])(?![a-zA-Z0-9])`, text, false) as string[];
  const lastAnswer = answers[answers.length - 1];
  return lastAnswer === undefined ? null : pyStrip(lastAnswer).toUpperCase();
}

export default defineEnvironment({
  name: "gpqa_diamond",
  description: "GPQA-Diamond multiple choice: the letter from \\boxed{} or 'Answer: X' must equal expected_answer.",
  task: Task,
  tools: {},
  verify: (request) => {
    const text = pyStrip(allOutputText(request.response));
    const options = request.options;
    const allowed = allowedLetters(options);

    let predicted: string | null = null;
    const template = request.template_metadata;
    if (template && Object.keys(template).length > 0 && "output_regex" in template) {
      predicted = letterFromTemplate(text, template.output_regex, allowed, options);
    }
    if (predicted === null) {
      predicted = extractLetter(text);
      if (predicted !== null) {
        predicted = predicted.toUpperCase();
        if (allowed.size > 0 && !allowed.has(predicted)) predicted = null;
      }
    }

    const gold = pyStrip(request.expected_answer ?? "").toUpperCase();
    const correct = predicted !== null && gold !== "" && predicted === gold;
    return { reward: correct ? 1.0 : 0.0, expected_answer: gold, extracted_answer: predicted };
  },
  // mcqa's metrics, inherited in NeMo Gym: pass@k and majority@k over the extracted letters.
  computeMetrics: (tasks) => passAtK(tasks, { answerKey: "extracted_answer", avgSampleStdDev: false }),
});
