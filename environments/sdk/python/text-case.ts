// Python's str.lower/upper/casefold: full case mappings with special casing (ß → SS, İ → i̇, final sigma in lower).

/** str.lower(): JS's toLowerCase applies the same SpecialCasing rules, final sigma included. */
export function pyLower(text: string): string {
  return text.toLowerCase();
}

/** str.upper(): full mappings (ß → SS, ŉ → ʼN), as JS's toUpperCase. */
export function pyUpper(text: string): string {
  return text.toUpperCase();
}

const DOTLESS_I = 0x131;
const CAPITAL_SHARP_S = 0x1e9e;

/**
 * str.casefold(): full case folding (CaseFolding.txt, C and F). Per character it is lower(upper(c)), except where
 * the folding is not that round trip: Cherokee folds to its uppercase letters, ẞ folds to "ss", and ı stays (its
 * fold is Turkic-only).
 */
export function pyCasefold(text: string): string {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === DOTLESS_I) out += ch;
    else if (cp === CAPITAL_SHARP_S) out += "ss";
    else if ((cp >= 0x13a0 && cp <= 0x13f5) || (cp >= 0x13f8 && cp <= 0x13fd) || (cp >= 0xab70 && cp <= 0xabbf)) out += ch.toUpperCase();
    else out += ch.toUpperCase().toLowerCase();
  }
  return out;
}
