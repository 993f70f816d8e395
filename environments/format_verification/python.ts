// Python's re.search and re.finditer for format_verification: the SDK's (kept under the names its verifier uses).
import { pySearch } from "../sdk/python/match.js";

export { pyFinditerWhole } from "../sdk/python/finditer.js";

/** re.search(pattern, text) is not None (no flags). */
export function pySearches(pattern: string, text: string): boolean {
  return pySearch(pattern, text) !== null;
}
