// NeMo Gym's genrm_compare utilities: comparison pairs, GenRM output parsing, Response text extraction, score aggregation.
import { type PyValue, parsePyFloat, PY_WHITESPACE, pyJsonValue, pyStrip } from "../sdk/python/index.js";

export const RANKING_MIDPOINT = 3.5;
export const EMPTY_OUTPUT_PLACEHOLDER = "None";

/** GenRMOutputParseError: no parseable JSON scores in a GenRM answer. */
export class GenRMOutputParseError extends Error {
  override readonly name = "GenRMOutputParseError";
}

export type Scores = readonly [score1: number, score2: number, ranking: number];
export type Pair = readonly [i: number, j: number];

/** generate_comparison_pairs: "circular" (each with the next, N pairs) or "all_pairs" (C(N,2), i < j). */
export function generateComparisonPairs(strategy: string, numResponses: number): Pair[] {
  if (strategy !== "circular" && strategy !== "all_pairs") {
    throw new Error(`Unknown comparison strategy: '${strategy}'. Supported: ['all_pairs', 'circular']`);
  }
  if (numResponses < 2) throw new Error(`Need at least 2 responses for comparison, got ${numResponses}`);
  const pairs: Pair[] = [];
  if (strategy === "circular") for (let i = 0; i < numResponses; i++) pairs.push([i, (i + 1) % numResponses]);
  else for (let i = 0; i < numResponses; i++) for (let j = i + 1; j < numResponses; j++) pairs.push([i, j]);
  return pairs;
}

/** Python's float(value) for a json.loads value: undefined where it raises TypeError/ValueError. */
function pyFloat(value: PyValue): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") {
    const float = Number(value);
    // float(int) past the double range raises OverflowError, which _try_parse does not catch.
    if (!Number.isFinite(float)) throw new RangeError("int too large to convert to float");
    return float;
  }
  if (typeof value === "string") return parsePyFloat(value) ?? undefined;
  return undefined;
}

const isDict = (value: PyValue): value is { [key: string]: PyValue } => typeof value === "object" && value !== null && !Array.isArray(value);

/** _try_parse: a JSON object with score_1/score_2/ranking (or under "overall"), missing keys defaulted. */
function tryParse(json: string, defaultScore: number, defaultRanking: number): Scores | null {
  let parsed: PyValue;
  try {
    parsed = pyJsonValue(json);
  } catch (error) {
    if (error instanceof Error && error.name === "JSONDecodeError") return null;
    throw error;
  }
  if (!isDict(parsed)) return null;
  const overall = Object.hasOwn(parsed, "overall") ? parsed.overall : undefined;
  if (overall !== undefined && isDict(overall)) parsed = overall;
  const dict = parsed as { [key: string]: PyValue };
  if (!["score_1", "score_2", "ranking"].some((key) => Object.hasOwn(dict, key))) return null;
  const get = (key: string, fallback: number) => (Object.hasOwn(dict, key) ? pyFloat(dict[key]!) : fallback);
  const score1 = get("score_1", defaultScore);
  const score2 = get("score_2", defaultScore);
  const ranking = get("ranking", defaultRanking);
  if (score1 === undefined || score2 === undefined || ranking === undefined) return null;
  return [score1, score2, ranking];
}

/** _find_json_objects: top-level {...} spans by brace counting, skipping braces inside strings. */
export function findJsonObjects(text: string): string[] {
  const results: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "{") continue;
    let depth = 0;
    let inString = false;
    let escapeNext = false;
    for (let j = i; j < text.length; j++) {
      const ch = text[j];
      if (escapeNext) {
        escapeNext = false;
        continue;
      }
      if (ch === "\\" && inString) {
        escapeNext = true;
        continue;
      }
      if (ch === '"') {
        inString = !inString;
        continue;
      }
      if (inString) continue;
      if (ch === "{") depth += 1;
      else if (ch === "}") {
        depth -= 1;
        if (depth === 0) {
          results.push(text.slice(i, j + 1));
          i = j;
          break;
        }
      }
    }
  }
  return results;
}

// re.finditer(r"```json\s*([\s\S]*?)\s*```", output, flags=re.IGNORECASE), with Python's \s.
const FENCED = new RegExp(`\`\`\`json[${PY_WHITESPACE}]*([\\s\\S]*?)[${PY_WHITESPACE}]*\`\`\``, "giu");

/** Python's `output[:200] + "..."` preview, counted in code points. */
function preview(output: string): string {
  const points = [...output];
  return points.length > 200 ? `${points.slice(0, 200).join("")}...` : output;
}

/** parse_genrm_output: fenced JSON blocks first (first valid), then the last valid top-level object; else defaults or throw. */
export function parseGenrmOutput(output: string, defaultScore: number, defaultRanking: number, raiseOnFail = false): Scores {
  try {
    for (const match of output.matchAll(FENCED)) {
      for (const json of findJsonObjects(match[1]!)) {
        const result = tryParse(json, defaultScore, defaultRanking);
        if (result !== null) return result;
      }
    }
    let lastValid: Scores | null = null;
    for (const json of findJsonObjects(output)) lastValid = tryParse(json, defaultScore, defaultRanking) ?? lastValid;
    if (lastValid !== null) return lastValid;
  } catch (error) {
    if (raiseOnFail) throw new GenRMOutputParseError(`Error parsing GenRM output: ${String(error)}. Output: ${preview(output)}`);
    return [defaultScore, defaultScore, defaultRanking];
  }
  if (raiseOnFail) throw new GenRMOutputParseError(`No parseable JSON found in GenRM output: ${preview(output)}`);
  return [defaultScore, defaultScore, defaultRanking];
}

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** extract_from_response_obj: [reasoning summary texts, output_text texts] of a Response object. */
export function extractFromResponseObj(responseObj: unknown): [reasoning: string, output: string] {
  let reasoning = "";
  let output = "";
  const items = record(responseObj)?.output;
  if (!Array.isArray(items)) return [reasoning, output];
  for (const entry of items) {
    const item = record(entry);
    if (!item) continue;
    if (item.type === "reasoning" && Array.isArray(item.summary)) {
      for (const s of item.summary) if (record(s) && Object.hasOwn(record(s)!, "text")) reasoning += text(record(s)!.text);
    } else if (item.type === "message" && Array.isArray(item.content)) {
      for (const c of item.content) if (record(c)?.type === "output_text") output += text(record(c)!.text);
    }
  }
  return [reasoning, output];
}

/** extract_output_text: the final answer, or "None" when it is empty or whitespace. */
export function extractOutputText(responseObj: unknown): string {
  const [, output] = extractFromResponseObj(responseObj);
  return pyStrip(output) ? output : EMPTY_OUTPUT_PLACEHOLDER;
}
