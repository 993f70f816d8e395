// NeMo Gym's spartqa answer handling: reasoning stripped, the "Final answer:" phrase extracted, resolved to one label.
import { pySplit, pySplitlines, pyStrip } from "../sdk/python/text.js";
import { pySub } from "../sdk/python/sub.js";

export const BOTH_LABEL = "both of them";
export const NONE_LABEL = "none of them";
const BOTH_ALIASES = new Set(["both", "both of them", "both objects", "both of the objects", "both of these"]);
const NONE_ALIASES = new Set([
  "none",
  "none of them",
  "none of the objects",
  "neither",
  "neither of them",
  "neither object",
  "no object",
  "dk",
  "do not know",
  "dont know",
]);
const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
const IGNORE_CASE_DOTALL = { ignoreCase: true, dotAll: true };

/** strip, lower, drop ASCII punctuation, collapse whitespace. */
export function normalize(text: string): string {
  const lowered = [...pyStrip(text).toLowerCase()].filter((ch) => !PUNCTUATION.has(ch)).join("");
  return pySplit(lowered).join(" ");
}

export function stripReasoning(text: string): string {
  let out = pySub("<think>.*?</think>", text, () => "", IGNORE_CASE_DOTALL);
  out = pySub(String.raw`<\|channel\>thought\s*.*?<channel\|>`, out, () => "", IGNORE_CASE_DOTALL);
  return pyStrip(out);
}

function cleanCandidate(text: string): string {
  let out = pyStrip(text);
  out = pySub("^[-*•\\s]+", out, () => "");
  out = pyStrip(pySub(String.raw`^\*+|\*+$`, out, () => ""));
  out = pyStrip(pySub("</?think>", out, () => "", { ignoreCase: true }));
  return pyStrip(pyStrip(out), "\"'` ");
}

const PATTERNS = [
  String.raw`(?:^|\n)\s*(?:[*_${"`"}#>\-\s]*)final\s+answer(?:\s+is)?\s*(?:[*_${"`"}\s])*[:\-]\s*(.+)`,
  String.raw`(?:^|\n)\s*(?:[*_${"`"}#>\-\s]*)selected\s+answer(?:\s+is)?\s*(?:[*_${"`"}\s])*[:\-]\s*(.+)`,
  String.raw`(?:^|\n)\s*(?:[*_${"`"}#>\-\s]*)answer(?:\s+is)?\s*(?:[*_${"`"}\s])*[:\-]\s*(.+)`,
  String.raw`\b(?:the\s+)?(?:final\s+)?answer\s+(?:is|would\s+be|should\s+be)\s*[:\-]?\s*(.+)`,
  String.raw`\bselected\s+(?:option|answer)\s+(?:is|would\s+be)\s*[:\-]?\s*(.+)`,
];
const THINKING_OPENERS = ["thinking process", "analysis", "the user wants", "we need"];

/** NeMo Gym's _extract_answer: the last real "Final answer:" (or similar) phrase, else the first meaningful line. */
export function extractAnswer(response: string): string {
  let text = stripReasoning(response);
  let extracted: string | null = null;
  for (const pattern of PATTERNS) {
    const candidates: string[] = [];
    pySub(
      pattern,
      text,
      ([captured]) => {
        const value = pyStrip(captured ?? "");
        // The instruction template's own "Final answer: <candidate answer>" is not an answer.
        if (value && normalize(value) !== "candidate answer") candidates.push(value);
        return "";
      },
      { ignoreCase: true, multiline: true },
    );
    if (candidates.length > 0) {
      extracted = candidates[candidates.length - 1]!;
      break;
    }
  }
  if (extracted !== null) text = extracted;

  const lines = pySplitlines(text)
    .filter((line) => pyStrip(line))
    .map(cleanCandidate)
    .filter((line) => line && normalize(line) !== "final answer" && normalize(line) !== "answer");
  if (lines.length === 0) return "";
  if (extracted === null && lines.length > 1) {
    const first = normalize(lines[0]!);
    if (THINKING_OPENERS.some((opener) => first.startsWith(opener))) return lines[lines.length - 1]!;
  }
  return lines[0]!;
}

/** Article-insensitive comparison key of a label or a prediction. */
export function labelKey(text: string): string {
  return pyStrip(pySub(String.raw`^(?:a|an|the)\s+`, normalize(text), () => ""));
}

/** The four CO labels: the two story objects, then "both of them" / "none of them", deduplicated by key. */
export function candidateLabels(options: string[]): string[] {
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const label of [...options, BOTH_LABEL, NONE_LABEL]) {
    const key = labelKey(label);
    if (key && !seen.has(key)) {
      seen.add(key);
      labels.push(pyStrip(label));
    }
  }
  return labels;
}

/** A free-text answer resolved to exactly one label: verbatim, an alias, or the one label it contains; else null. */
export function matchLabel(prediction: string, labels: string[]): string | null {
  const key = labelKey(prediction);
  if (!key) return null;
  const byKey = new Map<string, string>();
  for (const label of labels) byKey.set(labelKey(label), label);
  const values = [...byKey.values()];
  if (byKey.has(key)) return byKey.get(key)!;
  if (BOTH_ALIASES.has(key) && values.includes(BOTH_LABEL)) return byKey.get(labelKey(BOTH_LABEL))!;
  if (NONE_ALIASES.has(key) && values.includes(NONE_LABEL)) return byKey.get(labelKey(NONE_LABEL))!;
  let hits = [...byKey.keys()].filter((k) => k && key.includes(k));
  // A label nested in another hit ("a triangle in block B" in "a big blue triangle in block B") gives way to it.
  hits = hits.filter((h) => !hits.some((other) => other !== h && other.includes(h)));
  return hits.length === 1 ? byKey.get(hits[0]!)! : null;
}
