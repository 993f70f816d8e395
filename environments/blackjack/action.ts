// The model's decision, read exactly as NeMo Gym's `re.search(r"<action>\s*(hit|stand)\s*</action>", text, re.IGNORECASE)` reads it.
import type { Decision } from "./game.js";

// Python's `\s` on str (it has \x1c-\x1f and \x85, which JavaScript's lacks, and not \ufeff, which JavaScript's has).
const WS = "[\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
// Python's IGNORECASE also lets "i" match U+0130 and U+0131, and "s" match U+017F; no other letter here has such a twin.
const I = "[iI\\u0130\\u0131]";
const S = "[sS\\u017f]";
const TAG = `[aA][cC][tT]${I}[oO][nN]`;
const ACTION = new RegExp(`<${TAG}>${WS}*([hH]${I}[tT]|${S}[tT][aA][nN][dD])${WS}*</${TAG}>`);

/** "hit" only when the first tag says hit (lower-cased, as Python's `.lower()` does); anything else stands. */
export function decide(text: string): Decision {
  const match = ACTION.exec(text);
  return match?.[1]?.toLowerCase() === "hit" ? "hit" : "stand";
}
