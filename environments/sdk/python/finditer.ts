// re.finditer's whole matches ([m.group(0) for m in re.finditer(pattern, text)]) through the SDK's translator.
import { compilePython } from "./findall.js";
import { advancingRegExp, pythonMatches } from "./regex.js";

/**
 * [m.group(0) for m in re.finditer(pattern, text)]: after an empty match Python still takes a non-empty match at the
 * same position (the SDK's findall does the same; it returns groups, not whole matches, when the pattern has groups).
 */
export function pyFinditerWhole(pattern: string, text: string): string[] {
  const compiled = compilePython(pattern, false);
  // A copy of the cached global regex: its lastIndex is this call's alone.
  const search = new RegExp(compiled.search.source, compiled.search.flags);
  const advance = () => advancingRegExp(compiled.source, compiled.ignoreCase, pattern);
  return Array.from(pythonMatches(search, advance, text), (match) => match[0]);
}
