// re.sub with a function of the groups as the replacement, for verifiers that rewrite matches (abstention, spartqa, hotpotqa_qa).
import { buildRegExp, compilePythonRegex, nextCodePoint, type PythonRegexOptions, searchFrom } from "./regex.js";

const advancing = new Map<string, RegExp>();

/**
 * Python's re.sub(pattern, replacement, text) where the replacement is a function of the groups (unmatched → ""). The
 * matches are Python's: after an empty match a non-empty one may start at the same place (`\d*?\s*` on "1" replaces
 * "", "1" and ""), where JS's replace steps past it; and none starts inside a surrogate pair.
 */
export function pySub(pattern: string, text: string, replace: (groups: string[]) => string, flags: PythonRegexOptions = {}): string {
  const compiled = compilePythonRegex(pattern, flags, "g");
  const { regex: search, groups } = compiled;
  const key = `${flags.ignoreCase ? "i" : ""}${flags.multiline ? "m" : ""}${flags.dotAll ? "s" : ""}/${pattern}`;
  let advance = advancing.get(key);
  if (!advance) {
    // Group 1 holds the rest of the input, so the match may not end where it started; Python's groups are named (g<n>).
    advance = buildRegExp(`(?=([\\s\\S]*))(?:${compiled.source})(?!\\1$)`, `yu${compiled.ignoreCase ? "i" : ""}`, pattern);
    if (advancing.size >= 256) advancing.clear();
    advancing.set(key, advance);
  }
  let out = "";
  let copied = 0;
  let position = 0;
  let mustAdvance = false;
  while (position <= text.length) {
    let match: RegExpExecArray | null = null;
    if (mustAdvance) {
      advance.lastIndex = position;
      match = advance.exec(text);
    }
    match ??= searchFrom(search, text, mustAdvance ? nextCodePoint(text, position) : position);
    if (!match) break;
    out += text.slice(copied, match.index) + replace(Array.from({ length: groups }, (_, i) => match.groups?.[`g${i + 1}`] ?? ""));
    const end = match.index + match[0].length;
    copied = end;
    mustAdvance = end === match.index;
    position = end;
  }
  return out + text.slice(copied);
}
