// Port of NeMo Gym's mcqa: multiple-choice answers graded by letter, by grading mode or a dataset's own regex.
import { allOutputText as outputText, defineEnvironment, passAtK, type SimpleEnvironment } from "../sdk/index.js";
import { allowedLetters, answerColon, answerColonMarkdown, matchOptionText, strictBoxedLetter, type Options } from "../sdk/choices/grading.js";
import { type GradingMode, letterFromTemplate, Task } from "../sdk/choices/template.js";

export type { GradingMode };
import { pyStrip } from "../sdk/python/text.js";

export interface McqaConfig {
  /** NeMo Gym's MCQAResourcesServerConfig.grading_mode: overrides each row's mode when set (default null). */
  grading_mode?: GradingMode | null;
}

function letterByMode(mode: GradingMode, text: string, options: Options, allowed: Set<string>): string | null {
  switch (mode) {
    case "strict_single_letter_boxed":
      return strictBoxedLetter(text, allowed);
    case "lenient_boxed":
      return strictBoxedLetter(text, allowed) ?? matchOptionText(text, options, allowed);
    case "lenient_answer_colon":
      return answerColon(text, options, allowed);
    case "lenient_answer_colon_md":
      return answerColonMarkdown(text, allowed);
  }
}

/** The mcqa environment with a server config (NeMo Gym's configs/mcqa.yaml sets grading_mode: null). */
export function mcqaEnvironment(config: McqaConfig = {}): SimpleEnvironment {
  return defineEnvironment({
    name: "mcqa",
    description: "Multiple-choice questions: the extracted answer letter must equal expected_answer.",
    task: Task,
    tools: {},
    verify: (request) => {
      const options = request.options;
      const gold = pyStrip(request.expected_answer ?? "").toUpperCase();
      const allowed = allowedLetters(options);
      const mode = config.grading_mode || request.grading_mode;
      const text = pyStrip(outputText(request.response));
      if (!text) return { reward: 0.0, expected_answer: gold, extracted_answer: null };

      let predicted: string | null = null;
      const template = request.template_metadata;
      if (template && Object.keys(template).length > 0 && "output_regex" in template) {
        predicted = letterFromTemplate(text, template.output_regex, allowed, options);
      }
      predicted ??= letterByMode(mode, text, options, allowed);

      const correct = predicted !== null && gold !== "" && predicted === gold;
      return { reward: correct ? 1.0 : 0.0, expected_answer: gold, extracted_answer: predicted };
    },
    // pass@k and majority@k over the extracted letters (NeMo Gym's compute_pass_majority_metrics, no sample std).
    computeMetrics: (tasks) => passAtK(tasks, { answerKey: "extracted_answer", avgSampleStdDev: false }),
  });
}

export default mcqaEnvironment();
