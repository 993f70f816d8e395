// re.sub with a function of the groups as the replacement, for verifiers that rewrite matches (abstention, spartqa, hotpotqa_qa).
import { advancingRegExp, compilePythonRegex, type PythonRegexOptions, pythonMatches } from "./regex.js";

/**
 * Python's re.sub(pattern, replacement, text) where the replacement is a function of the groups (unmatched → ""). The
 * matches are Python's (regex.ts pythonMatches): after an empty match a non-empty one may start at the same place
 * (`\d*?\s*` on "1" replaces "", "1" and ""), where JS's replace steps past it; and none starts inside a surrogate pair.
 */
export function pySub(pattern: string, text: string, replace: (groups: string[]) => string, flags: PythonRegexOptions = {}): string {
  const compiled = compilePythonRegex(pattern, flags, "g");
  const advance = () => advancingRegExp(compiled.source, compiled.ignoreCase, pattern);
  let out = "";
  let copied = 0;
  for (const match of pythonMatches(compiled.regex, advance, text)) {
    out += text.slice(copied, match.index) + replace(Array.from({ length: compiled.groups }, (_, i) => match.groups?.[`g${i + 1}`] ?? ""));
    copied = match.index + match[0].length;
  }
  return out + text.slice(copied);
}
