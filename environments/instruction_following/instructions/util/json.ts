// Whether Python's json.loads accepts a string: JSON.parse's grammar plus the NaN, Infinity and -Infinity
// literals Python allows where a value may stand.

/** Replaces NaN / Infinity / -Infinity outside strings with a number, spaced so it cannot join a neighbour. */
function withoutNonFiniteLiterals(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const literal = ["-Infinity", "Infinity", "NaN"].find((word) => text.startsWith(word, i));
    if (literal) {
      out += " 0 ";
      i += literal.length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

export function isValidPythonJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    if (!/NaN|Infinity/.test(text)) return false;
  }
  try {
    JSON.parse(withoutNonFiniteLiterals(text));
    return true;
  } catch {
    return false;
  }
}
