// NeMo RL's string-match grader as NeMo Gym runs it: normalise both sides, then try a ladder of equivalences.
import { parsePyFloat as pyFloat, pyFloatRepr } from "../sdk/python/numbers.js";
import { pyLen, pyRstrip, pySplit, pyStrip } from "../sdk/python/text.js";

const US_STATES: [string, string][] = [
  ["district of columbia", "DC"],
  ["new hampshire", "NH"],
  ["new jersey", "NJ"],
  ["new mexico", "NM"],
  ["new york", "NY"],
  ["north carolina", "NC"],
  ["north dakota", "ND"],
  ["rhode island", "RI"],
  ["south carolina", "SC"],
  ["south dakota", "SD"],
  ["west virginia", "WV"],
  ["alabama", "AL"],
  ["alaska", "AK"],
  ["arizona", "AZ"],
  ["arkansas", "AR"],
  ["california", "CA"],
  ["colorado", "CO"],
  ["connecticut", "CT"],
  ["delaware", "DE"],
  ["florida", "FL"],
  ["georgia", "GA"],
  ["hawaii", "HI"],
  ["idaho", "ID"],
  ["illinois", "IL"],
  ["indiana", "IN"],
  ["iowa", "IA"],
  ["kansas", "KS"],
  ["kentucky", "KY"],
  ["louisiana", "LA"],
  ["maine", "ME"],
  ["maryland", "MD"],
  ["massachusetts", "MA"],
  ["michigan", "MI"],
  ["minnesota", "MN"],
  ["mississippi", "MS"],
  ["missouri", "MO"],
  ["montana", "MT"],
  ["nebraska", "NE"],
  ["nevada", "NV"],
  ["ohio", "OH"],
  ["oklahoma", "OK"],
  ["oregon", "OR"],
  ["pennsylvania", "PA"],
  ["tennessee", "TN"],
  ["texas", "TX"],
  ["utah", "UT"],
  ["vermont", "VT"],
  ["virginia", "VA"],
  ["washington", "WA"],
  ["wisconsin", "WI"],
  ["wyoming", "WY"],
];

const LATEX_COMMANDS = [
  "\\boxed",
  "\\text",
  "\\textbf",
  "\\textit",
  "\\texttt",
  "\\mathrm",
  "\\mathbf",
  "\\mathit",
  "\\mathsf",
  "\\mathbb",
  "\\mathcal",
  "\\emph",
  "\\url",
];

const UNICODE_MATH: [string, string][] = [
  ["°", "^\\circ"],
  ["²", "^2"],
  ["³", "^3"],
  ["⁴", "^4"],
  ["⁵", "^5"],
  ["⁶", "^6"],
  ["⁷", "^7"],
  ["⁸", "^8"],
  ["⁹", "^9"],
  ["√", "\\sqrt"],
  ["﹣", "-"],
  ["﹢", "+"],
  ["﹦", "="],
  ["﹤", "<"],
  ["﹥", ">"],
  ["：", ":"],
  ["π", "\\pi"],
];

// Order matters: "mm" before "m", and a bare "m" is stripped wherever it stands (as in NeMo Gym).
const MATH_UNITS = /\^\{?\\circ\}?|\\circ|°|cm[²³]?|mm|km|m[²³]?|kg/gu;
const THOUSANDS = /(\p{Nd}+),(\p{Nd}+)/gu;

function stripOuterQuotes(text: string): string {
  if (text.length >= 2 && text[0] === text[text.length - 1] && (text[0] === '"' || text[0] === "'")) return text.slice(1, -1);
  return text;
}

function stripTrailingPunctuation(text: string): string {
  return pyRstrip(text, ".!?") || text;
}

function normalizeFloat(text: string): string {
  const value = pyFloat(pyStrip(text.replaceAll("\\%", "").replaceAll("\\$", "").replaceAll("$", "")));
  return value === null ? text : pyFloatRepr(value);
}

function normalizeNumbers(text: string): string {
  return text.replace(THOUSANDS, "$1$2").replaceAll("\\%", "%");
}

/** Drop list separators and the substrings "and"/"or" (even inside words), unless that removes over a tenth of the text. */
function normalizeLists(text: string): string {
  const replaced = text.replaceAll(",", " ").replaceAll(";", " ").replaceAll("and", " ").replaceAll("or", " ");
  if (pyLen(replaced) < 0.9 * pyLen(text)) return text;
  return pySplit(replaced).join(" ");
}

/** Remove `\cmd{` and its matching `}` for each occurrence; an unmatched brace removes only `\cmd{`. */
function removeLatexCommand(command: string, text: string): string {
  const opener = `${command}{`;
  let out = text;
  for (let at = out.indexOf(opener); at !== -1; at = out.indexOf(opener)) {
    const prefix = out.slice(0, at);
    const suffix = out.slice(at + opener.length);
    let depth = 1;
    let close = -1;
    for (let i = 0; i < suffix.length && close === -1; i++) {
      if (suffix[i] === "{") depth++;
      else if (suffix[i] === "}" && --depth === 0) close = i;
    }
    out = close === -1 ? prefix + suffix : prefix + suffix.slice(0, close) + suffix.slice(close + 1);
  }
  return out;
}

function normalizeLatex(text: string): string {
  let out = text;
  for (const command of LATEX_COMMANDS) out = removeLatexCommand(command, out);
  for (const token of ["\\(", "\\)", "\\[", "\\]"]) out = out.replaceAll(token, "");
  return pySplit(out.replaceAll("$", "")).join(" ");
}

function normalizeStates(text: string): string {
  let out = text;
  for (const [name, abbreviation] of US_STATES) out = out.replaceAll(name, abbreviation);
  return normalizeLists(out).toLowerCase();
}

function normalizeUnicodeMath(text: string): string {
  let out = text;
  for (const [from, to] of UNICODE_MATH) out = out.replaceAll(from, to);
  return out;
}

function stripNumeric(text: string): string {
  let out = text;
  for (const ch of "$£€%,") out = out.replaceAll(ch, "");
  out = normalizeUnicodeMath(out).replace(MATH_UNITS, "");
  return pyStrip(out.replaceAll("\\%", "").replaceAll("\\$", ""));
}

/** (1 - relative error)^2, floored at 0; 0 when either side is not a number. */
function softNumericGrade(gt: string, pred: string): number {
  const predValue = pyFloat(stripNumeric(pred));
  const gtValue = pyFloat(stripNumeric(gt));
  if (predValue === null || gtValue === null) return 0.0;
  const relError = Math.abs(predValue - gtValue) / Math.max(Math.abs(gtValue), 1e-9);
  const closeness = 1.0 - relError;
  // Python's max(0.0, nan) is 0.0.
  return Math.max(closeness, 0.0) ** 2;
}

/** NeMo RL's string-match verifier without format reward: 1.0, 0.98 for a close number, or 0.0. */
export function gradeStringMatch(gtAnswer: string, predAnswer: string): number {
  let pred = predAnswer.normalize("NFKC");
  let gt = gtAnswer.normalize("NFKC");
  pred = stripTrailingPunctuation(stripOuterQuotes(pred).toLowerCase());
  gt = stripTrailingPunctuation(stripOuterQuotes(gt).toLowerCase());

  if (pred === gt) return 1.0;
  if (normalizeFloat(pred) === normalizeFloat(gt)) return 1.0;
  if (normalizeNumbers(pred) === normalizeNumbers(gt)) return 1.0;
  if (normalizeLatex(pred) === normalizeLatex(gt)) return 1.0;
  if (normalizeLists(pred) === normalizeLists(gt)) return 1.0;
  if (normalizeStates(pred) === normalizeStates(gt)) return 1.0;
  if (softNumericGrade(gt, pred) > 0.98) return 0.98;

  const predStripped = pyStrip(normalizeUnicodeMath(normalizeLatex(pred)).replace(MATH_UNITS, ""));
  const gtStripped = pyStrip(normalizeUnicodeMath(normalizeLatex(gt)).replace(MATH_UNITS, ""));
  if (predStripped === gtStripped) return 1.0;
  if (softNumericGrade(gtStripped, predStripped) > 0.98) return 0.98;
  return 0.0;
}

/** Case-sensitive: exact equality after stripping whitespace; otherwise the grader. */
export function answersMatch(extracted: string, expected: string, caseSensitive: boolean): number {
  if (caseSensitive) return pyStrip(extracted) === pyStrip(expected) ? 1.0 : 0.0;
  return gradeStringMatch(expected, extracted);
}
