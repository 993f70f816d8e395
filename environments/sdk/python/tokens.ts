// Token counts exactly as Python's tiktoken gives them (encode_ordinary), over js-tiktoken's ranks with tiktoken's split patterns.
import { Tiktoken } from "js-tiktoken/lite";
import cl100k_base from "js-tiktoken/ranks/cl100k_base";
import o200k_base from "js-tiktoken/ranks/o200k_base";

export type TokenEncoding = "cl100k_base" | "o200k_base";

/** What `\s` means in tiktoken's (Rust) patterns: Unicode White_Space. JavaScript's `\s` adds U+FEFF and lacks U+0085. */
const WS = "\\t-\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
const S = `[${WS}]`;
const NOT_S = `[^${WS}]`;
/** `(?i:...)` in Rust folds `s` with `ſ` (U+017F) too; no other letter in the contractions has a third case. */
const s = "[sSſ]";

/**
 * tiktoken's own patterns (tiktoken_ext/openai_public.py), written for JavaScript's regex engine. Possessive
 * quantifiers are dropped where nothing after them could make the engine backtrack into them (each is followed by
 * a disjoint class or by nothing), and `\s++$` becomes `\s+$`, which matches the same text.
 */
const PATTERNS: Record<TokenEncoding, string> = {
  cl100k_base: [
    `'(?:${s}|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])`,
    "[^\\r\\n\\p{L}\\p{N}]?\\p{L}+",
    "\\p{N}{1,3}",
    ` ?[^${WS}\\p{L}\\p{N}]+[\\r\\n]*`,
    `${S}+$`,
    `${S}*[\\r\\n]`,
    `${S}+(?!${NOT_S})`,
    S,
  ].join("|"),
  o200k_base: [
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'(?:${s}|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))?`,
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'(?:${s}|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))?`,
    "\\p{N}{1,3}",
    ` ?[^${WS}\\p{L}\\p{N}]+[\\r\\n/]*`,
    `${S}*[\\r\\n]+`,
    `${S}+(?!${NOT_S})`,
    `${S}+`,
  ].join("|"),
};

const RANKS = { cl100k_base, o200k_base };
const encoders = new Map<TokenEncoding, Tiktoken>();

function encoder(encoding: TokenEncoding): Tiktoken {
  let found = encoders.get(encoding);
  if (!found) {
    const ranks = RANKS[encoding];
    if (!ranks) throw new Error(`unknown encoding ${JSON.stringify(encoding)} (known: ${Object.keys(RANKS).join(", ")})`);
    found = new Tiktoken({ ...ranks, pat_str: PATTERNS[encoding] });
    encoders.set(encoding, found);
  }
  return found;
}

/** `len(tiktoken.get_encoding(encoding).encode_ordinary(text))`: special tokens' text counts as ordinary text. */
export function countTokens(text: string, encoding: TokenEncoding): number {
  return encoder(encoding).encode(text, [], []).length;
}

/** The token ids themselves, as `encode_ordinary` returns them. */
export function encodeOrdinary(text: string, encoding: TokenEncoding): number[] {
  return encoder(encoding).encode(text, [], []);
}
