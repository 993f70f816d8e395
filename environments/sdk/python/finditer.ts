// re.finditer's whole matches ([m.group(0) for m in re.finditer(pattern, text)]) through the SDK's translator.
import { compilePython } from "./findall.js";
import { buildRegExp, nextCodePoint, searchFrom } from "./regex.js";

const advancing = new Map<string, RegExp>();

/**
 * [m.group(0) for m in re.finditer(pattern, text)]: after an empty match Python still takes a non-empty match at the
 * same position (the SDK's findall does the same; it returns groups, not whole matches, when the pattern has groups).
 */
export function pyFinditerWhole(pattern: string, text: string): string[] {
  const compiled = compilePython(pattern, false);
  const flags = `u${compiled.ignoreCase ? "i" : ""}`;
  let advance = advancing.get(pattern);
  if (!advance) {
    // Group 1 holds the rest of the input; the match may not end where it started. Python's groups are named (g<n>).
    advance = buildRegExp(`(?=([\\s\\S]*))(?:${compiled.source})(?!\\1$)`, `y${flags}`, pattern);
    if (advancing.size >= 256) advancing.clear();
    advancing.set(pattern, advance);
  }
  const search = new RegExp(compiled.search.source, `g${flags}`);
  const found: string[] = [];
  let position = 0;
  let mustAdvance = false;
  while (position <= text.length) {
    let match: RegExpExecArray | null = null;
    if (mustAdvance) {
      advance.lastIndex = position;
      match = advance.exec(text);
    }
    if (!match) {
      match = searchFrom(search, text, mustAdvance ? nextCodePoint(text, position) : position);
    }
    if (!match) break;
    found.push(match[0]);
    const end = match.index + match[0].length;
    mustAdvance = end === match.index;
    position = end;
  }
  return found;
}
