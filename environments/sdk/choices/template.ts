// A dataset's own answer regexes for multiple-choice rows (NeMo Gym's mcqa template_metadata.output_regex), and the
// row fields mcqa and gpqa_diamond share.
import { z } from "zod";
import { pythonFindall, PythonRegexError } from "../python/findall.js";
import { pyIsAlpha, pyLen, pyStrip } from "../python/text.js";
import { normalizeExtractedAnswer, normalizeForMatch, type Options } from "./grading.js";

/** Modes a row may ask for (NeMo Gym's MCQARunRequest.grading_mode). */
export const RowGradingMode = z.enum(["strict_single_letter_boxed", "lenient_boxed", "lenient_answer_colon"]);
/** Modes the server config may impose on every row; only the config reaches lenient_answer_colon_md. */
export type GradingMode = z.output<typeof RowGradingMode> | "lenient_answer_colon_md";

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
