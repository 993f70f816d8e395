// NeMo Gym's math_with_code verifier: the last \boxed{…} of the assistant's messages (else of the tool's stdout), compared.

/** _extract_boxed_answer: the content of the last \boxed{ with its braces balanced, trimmed; none when unbalanced or empty. */
export function extractBoxedAnswer(text: string): string | null {
  const marker = "\\boxed{";
  const index = text.lastIndexOf(marker);
  if (index === -1) return null;
  const start = index + marker.length;
  let depth = 1;
  let i = start;
  while (i < text.length && depth > 0) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}") depth--;
    i++;
  }
  if (depth !== 0) return null;
  const result = pyStrip(text.slice(start, i - 1));
  return result ? result : null;
}

/** Python's str.strip() with no argument: Unicode whitespace. */
function pyStrip(s: string): string {
  return s.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/gu, "");
}

/** _normalize_answer: \( … \), $ … $ and \text{ … } unwrapped once each, whitespace runs collapsed. */
export function normalizeAnswer(value: string): string {
  let s = pyStrip(value);
  if (s.startsWith("\\(") && s.endsWith("\\)")) s = pyStrip(s.slice(2, -2));
  if (s.startsWith("$") && s.endsWith("$") && s.length > 1) s = pyStrip(s.slice(1, -1));
  if (s.startsWith("\\text{") && s.endsWith("}")) s = pyStrip(s.slice(6, -1));
  return s
    .split(/[\s\u001c-\u001f\u0085]+/u)
    .filter(Boolean)
    .join(" ");
}

/** Python's float() on a string: decimal literals, underscores between digits, inf/nan; null when it raises. */
function pyFloat(s: string): number | null {
  const t = pyStrip(s);
  if (/^[+-]?(inf|infinity|nan)$/i.test(t)) return Number(t.replace(/inf(inity)?/i, "Infinity").replace(/nan/i, "NaN"));
  if (!/^[+-]?((\d(_?\d)*)(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?$/.test(t)) return null;
  return Number(t.replaceAll("_", ""));
}

/** _answers_match: equal after normalizing, or floats within 1e-6 relative (absolute below 1). */
export function answersMatch(actual: string | null, expected: string): boolean {
  if (actual === null) return false;
  const a = normalizeAnswer(actual);
  const e = normalizeAnswer(expected);
  if (a === e) return true;
  const fa = pyFloat(a);
  const fe = pyFloat(e);
  if (fa === null || fe === null) return false;
  // Python's float() raises OverflowError on none of these; inf - inf is nan, which compares false as in Python.
  return Math.abs(fa - fe) < 1e-6 * Math.max(1, Math.abs(fe));
}
