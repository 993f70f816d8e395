// copy:* and new:copy_span_idx — repeating the request verbatim, a span of it, or a phrase with one word changed.
import { instruction, type InstructionSpec } from "./base.js";
import { promptToRepeat } from "./combination.js";
import { compilePy } from "./util/pyregex.js";
import { PyError, codePoints, eq, lower, minus, requireStr, split, stripStr, strip, truthy } from "./util/python.js";
import { choice, randint } from "./util/random.js";
import { finditer } from "./util/text.js";

const PHRASES = [
  "Dance like nobody is watching you",
  "The early bird catches the worm",
  "Time flies when having fun",
  "Every cloud has a silver lining",
  "Actions speak louder than words",
  "Don't judge a book by cover",
  "Live each day to the fullest",
  "All that glitters is not gold",
  "Laughter is the best medicine",
  "The pen is mightier than sword",
];

/** re.findall's items: the match, its one group, or (with several groups) a tuple — here an array. */
function findall(pattern: string, text: string): (string | string[])[] {
  const { regex, groups } = compilePy(pattern);
  const re = new RegExp(regex.source, regex.flags);
  return finditer(re, text).map(({ index }) => {
    re.lastIndex = index;
    const m = re.exec(text)!;
    if (groups === 0) return m[0];
    const values = Array.from({ length: groups }, (_, i) => m.groups?.[`g${i + 1}`] ?? "");
    return groups === 1 ? values[0]! : values;
  });
}

/** copy:repeat_phrase — the phrase appears N times, each (as last checked) with exactly one word changed. */
export const repeatPhrase = instruction(["phrase", "small_n"], ({ phrase, small_n }) => {
  const reference = truthy(phrase) ? stripStr(phrase) : choice(PHRASES);
  const times = truthy(small_n) ? small_n : randint(2, 3);
  return (response) => {
    const words = split(reference);
    if (words.length === 0) throw new PyError("IndexError", "list index out of range");
    const found = findall(`${words[0]} .*? ${words[words.length - 1]}`, response);
    if (!eq(found.length, times)) return false;
    let differences = 0;
    for (const item of found) {
      if (typeof item !== "string") throw new PyError("AttributeError", "'tuple' object has no attribute 'split'");
      const candidate = split(item);
      differences = 0;
      if (candidate.length !== words.length) return false;
      for (let i = 0; i < candidate.length; i++) {
        if (candidate[i] !== words[i] && ++differences > 1) return false;
      }
    }
    return differences === 1;
  };
});

/** copy:copy and copy:copying_simple — the response is the prompt, trimmed and case-insensitively. */
export const copyPrompt = instruction(["prompt_to_repeat"], ({ prompt_to_repeat }) => {
  const prompt = promptToRepeat(prompt_to_repeat);
  return (response) => lower(strip(response)) === lower(stripStr(prompt));
});

/** copy:copying_multiple — the prompt N times, separated by "******". */
export const copyingMultiple = instruction(["prompt_to_repeat", "N"], ({ prompt_to_repeat, N }) => {
  const prompt = promptToRepeat(prompt_to_repeat);
  const times = truthy(N) ? N : randint(2, 3);
  return (response) => {
    const copies = response.split("******");
    if (!eq(copies.length, times)) return false;
    return copies.every((copy) => lower(strip(copy)) === lower(stripStr(prompt)));
  };
});

/** Python's seq[start:end] over code points (negative indices count from the end). */
function slice(cps: string[], start: unknown, end: unknown): string {
  const index = (value: unknown) => {
    const n = minus(value, 0);
    if (!Number.isInteger(n)) throw new PyError("TypeError", "slice indices must be integers");
    return n < 0 ? Math.max(0, cps.length + n) : Math.min(n, cps.length);
  };
  return cps.slice(index(start), index(end)).join("");
}

/** new:copy_span_idx — the response is the prompt's characters n_start..n_end (end excluded). */
export const copySpanIdx = instruction(["prompt_to_repeat", "n_start", "n_end"], ({ prompt_to_repeat, n_start, n_end }) => {
  const prompt = requireStr(promptToRepeat(prompt_to_repeat), "prompt_to_repeat");
  const cps = codePoints(prompt);
  const start = truthy(n_start) ? n_start : randint(0, cps.length - 2);
  const end = truthy(n_end) ? n_end : randint(minus(start, -1), cps.length - 1);
  return (response) => lower(strip(response)) === lower(strip(slice(cps, start, end)));
});

export const COPY: Record<string, InstructionSpec> = {
  "copy:repeat_phrase": repeatPhrase,
  "copy:copy": copyPrompt,
  "copy:copying_simple": copyPrompt,
  "copy:copying_multiple": copyingMultiple,
  "new:copy_span_idx": copySpanIdx,
};
