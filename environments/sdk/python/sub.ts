// re.sub with a function of the groups as the replacement, for verifiers that rewrite matches (abstention, spartqa, hotpotqa_qa).
import { compilePythonRegex, type PythonRegexOptions } from "./regex.js";

/** Python's re.sub(pattern, replacement, text) where the replacement is a function of the groups (unmatched → ""). */
export function pySub(pattern: string, text: string, replace: (groups: string[]) => string, flags: PythonRegexOptions = {}): string {
  const { regex, groups } = compilePythonRegex(pattern, flags, "g");
  return text.replace(regex, (...args: unknown[]) => replace(args.slice(1, 1 + groups).map((g) => (typeof g === "string" ? g : ""))));
}
