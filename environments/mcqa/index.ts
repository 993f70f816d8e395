// Port of NeMo Gym's mcqa: multiple-choice answers graded by letter, by grading mode or a dataset's own regex.
import { allOutputText as outputText, defineEnvironment, passAtK, z, type SimpleEnvironment } from "../sdk/index.js";
import {
  allowedLetters,
  answerColon,
  answerColonMarkdown,
  matchOptionText,
  normalizeExtractedAnswer,
  normalizeForMatch,
  strictBoxedLetter,
  type Options,
} from "./grading.js";
import { pythonFindall, PythonRegexError } from "../sdk/python/findall.js";
import { pyIsAlpha, pyLen, pyStrip } from "../sdk/python/text.js";

/** Modes a row may ask for (NeMo Gym's MCQARunRequest.grading_mode). */
const RowGradingMode = z.enum(["strict_single_letter_boxed", "lenient_boxed", "lenient_answer_colon"]);
/** Modes the server config may impose on every row; only the config reaches lenient_answer_colon_md. */
export type GradingMode = z.output<typeof RowGradingMode> | "lenient_answer_colon_md";

export interface McqaConfig {
  /** NeMo Gym's MCQAResourcesServerConfig.grading_mode: overrides each row's mode when set (default null). */
  grading_mode?: GradingMode | null;
}

export const Task = z.object({
  uuid: z.string().nullish(),
  options: z.array(z.record(z.string(), z.string().nullable())).nullish(),
  expected_answer: z.string().nullish(),
  // Carried for the dataset, never read by the verifier.
  metadata: z.record(z.string(), z.unknown()).nullish(),
  grading_mode: RowGradingMode.default("strict_single_letter_boxed"),
  template_metadata: z.record(z.string(), z.unknown()).nullish(),
});

/** The last match of one dataset regex: a letter (trusted even outside the options) or an option's exact text. */
function letterFromRegex(text: string, pattern: string, allowed: Set<string>, options: Options): string | null {
  let matches: (string | string[])[];
  try {
    matches = pythonFindall(pattern, text, true);
  } catch (error) {
    // An invalid pattern (re.error) falls back to the grading mode, as in NeMo Gym.
    if (error instanceof PythonRegexError) return null;
    throw error;
  }
  const last = matches[matches.length - 1];
  if (last === undefined) return null;
  if (typeof last !== "string") throw new TypeError(`output_regex ${JSON.stringify(pattern)} has several groups; NeMo Gym cannot strip a tuple`);
  const captured = normalizeExtractedAnswer(pyStrip(last)).toUpperCase();
  if (pyLen(captured) === 1 && pyIsAlpha(captured)) return captured;
  const wanted = normalizeForMatch(captured);
  for (const entry of options ?? []) {
    for (const [key, value] of Object.entries(entry)) {
      if (value !== null && allowed.has(key.toUpperCase()) && normalizeForMatch(value) === wanted) return key.toUpperCase();
    }
  }
  return null;
}

/** template_metadata.output_regex: one pattern, or a list tried in order until one yields a letter. */
export function letterFromTemplate(text: string, patterns: unknown, allowed: Set<string>, options: Options): string | null {
  // Python iterates whatever else it is given: a list's items, a dict's keys; anything else raises.
  const list =
    typeof patterns === "string"
      ? [patterns]
      : patterns !== null && typeof patterns === "object" && !Array.isArray(patterns)
        ? Object.keys(patterns)
        : patterns;
  if (!Array.isArray(list)) throw new TypeError("template_metadata.output_regex must be a string or a list of strings");
  for (const pattern of list) {
    if (typeof pattern !== "string") throw new TypeError("template_metadata.output_regex holds a non-string pattern");
    const letter = letterFromRegex(text, pattern, allowed, options);
    if (letter !== null) return letter;
  }
  return null;
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
