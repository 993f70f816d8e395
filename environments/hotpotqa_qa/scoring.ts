// NeMo Gym's hotpotqa_qa scoring.py, first half: SQuAD answer EM/F1 and the JSON answer extractor.
import { PythonJsonDecodeError, PythonJsonLimitError, pyJsonLoads } from "../sdk/python/json.js";
import { pySplit, pyStrip } from "../sdk/python/text.js";
import { pySub } from "../sdk/python/sub.js";
import { PyDict, pyJsonBuild, pyStr, type PyJson } from "./python.js";

const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");

/** SQuAD / HotpotQA answer normalisation: lower, drop punctuation and articles, collapse whitespace. */
export function normalizeAnswer(text: string): string {
  const noPunc = [...text.toLowerCase()].filter((ch) => !PUNCTUATION.has(ch)).join("");
  return pySplit(pySub(String.raw`\b(a|an|the)\b`, noPunc, () => " ")).join(" ");
}

const ZERO: [number, number, number] = [0.0, 0.0, 0.0];
const SPECIAL = new Set(["yes", "no", "noanswer"]);

/** Token-overlap (f1, precision, recall); yes/no/noanswer must match exactly. */
export function answerF1Score(prediction: string, groundTruth: string): [number, number, number] {
  const pred = normalizeAnswer(prediction);
  const gold = normalizeAnswer(groundTruth);
  if (SPECIAL.has(pred) && pred !== gold) return ZERO;
  if (SPECIAL.has(gold) && pred !== gold) return ZERO;
  const predTokens = pySplit(pred);
  const goldTokens = pySplit(gold);
  const counts = new Map<string, number>();
  for (const token of goldTokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predTokens) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same += 1;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return ZERO;
  const precision = (1.0 * same) / predTokens.length;
  const recall = (1.0 * same) / goldTokens.length;
  return [(2 * precision * recall) / (precision + recall), precision, recall];
}

export function answerExactMatch(prediction: string, groundTruth: string): number {
  return normalizeAnswer(prediction) === normalizeAnswer(groundTruth) ? 1.0 : 0.0;
}

/** `_try_parse_answer_json`: str(obj["answer"]) of a JSON object holding "answer", else null. */
function tryParseAnswerJson(text: string): string | null {
  let parsed: PyJson;
  try {
    parsed = pyJsonLoads<PyJson>(text, pyJsonBuild);
  } catch (error) {
    // json.JSONDecodeError and ValueError are caught; RecursionError escapes, as in Python.
    if (error instanceof PythonJsonDecodeError || (error instanceof PythonJsonLimitError && error.pyType === "ValueError")) return null;
    throw error;
  }
  if (!(parsed instanceof PyDict) || !parsed.has("answer")) return null;
  const facts = parsed.get("supporting_facts");
  if (Array.isArray(facts)) {
    for (const item of facts) {
      // int(item[1]) of an infinite float raises OverflowError, which nothing catches.
      if (Array.isArray(item) && item.length === 2 && typeof item[1] === "number" && Math.abs(item[1]) === Infinity) {
        throw new RangeError("OverflowError: cannot convert float infinity to integer");
      }
    }
  }
  return pyStr(parsed.get("answer") as PyJson);
}

/** Brace-balanced `{...}` substrings, in order; an unclosed brace ends the scan. */
function jsonCandidates(text: string): string[] {
  const candidates: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "{") {
      i += 1;
      continue;
    }
    let depth = 0;
    let closed = false;
    for (let j = i; j < text.length; j++) {
      if (text[j] === "{") depth += 1;
      else if (text[j] === "}") depth -= 1;
      if (depth === 0) {
        candidates.push(text.slice(i, j + 1));
        i = j + 1;
        closed = true;
        break;
      }
    }
    if (!closed) break;
  }
  return candidates;
}

/** `parse_generation`'s answer: the last fenced, then the last bare, JSON object with "answer"; else the whole text. */
export function parseGeneration(generation: string): string {
  if (!generation) return "";
  const text = pyStrip(generation);
  const fenced: string[] = [];
  const fence = (groups: string[]) => {
    fenced.push(groups[0]!);
    return "";
  };
  pySub("```(?:json)?\\s*(\\{.*?\\})\\s*```", text, fence, { dotAll: true });
  for (const candidate of fenced.reverse()) {
    const answer = tryParseAnswerJson(candidate);
    if (answer !== null) return answer;
  }
  for (const candidate of jsonCandidates(text).reverse()) {
    const answer = tryParseAnswerJson(candidate);
    if (answer !== null) return answer;
  }
  return text;
}
