// Python's str.isdigit/isdecimal/isnumeric/isalnum/isupper/islower: the JS engine's Unicode properties plus the two
// Numeric_Type sets JS regexes cannot name (taken from CPython's unicodedata, checked in tests/python/differential).

/** Numeric_Type=Digit outside Nd (superscripts, circled digits, ...): str.isdigit() is true, isdecimal() false. */
const DIGIT_NOT_DECIMAL =
  "\\xb2\\xb3\\xb9\\u1369-\\u1371\\u19da\\u2070\\u2074-\\u2079\\u2080-\\u2089\\u2460-\\u2468\\u2474-\\u247c\\u2488-\\u2490" +
  "\\u24ea\\u24f5-\\u24fd\\u24ff\\u2776-\\u277e\\u2780-\\u2788\\u278a-\\u2792\\u{10a40}-\\u{10a43}\\u{10e60}-\\u{10e68}" +
  "\\u{11052}-\\u{1105a}\\u{1f100}-\\u{1f10a}";

/**
 * Letters (Lo) with a numeric value (CJK numerals): str.isnumeric() is true for them besides every \p{N}. As in
 * CPython 3.13 (Unicode 15.1, NeMo Gym's Python), which added the last ten (U+4E24 ... U+94A9).
 */
const NUMERIC_LETTERS = [
  0x3405, 0x3483, 0x382a, 0x3b4d, 0x4e00, 0x4e03, 0x4e07, 0x4e09, 0x4e5d, 0x4e8c, 0x4e94, 0x4e96, 0x4ebf, 0x4ec0, 0x4edf, 0x4ee8, 0x4f0d, 0x4f70, 0x5104,
  0x5146, 0x5169, 0x516b, 0x516d, 0x5341, 0x5343, 0x5344, 0x5345, 0x534c, 0x53c1, 0x53c2, 0x53c3, 0x53c4, 0x56db, 0x58f1, 0x58f9, 0x5e7a, 0x5efe, 0x5eff,
  0x5f0c, 0x5f0d, 0x5f0e, 0x5f10, 0x62fe, 0x634c, 0x67d2, 0x6f06, 0x7396, 0x767e, 0x8086, 0x842c, 0x8cae, 0x8cb3, 0x8d30, 0x9621, 0x9646, 0x964c, 0x9678,
  0x96f6, 0xf96b, 0xf973, 0xf978, 0xf9b2, 0xf9d1, 0xf9d3, 0xf9fd, 0x20001, 0x20064, 0x200e2, 0x20121, 0x2092a, 0x20983, 0x2098c, 0x2099c, 0x20aea, 0x20afd,
  0x20b19, 0x22390, 0x22998, 0x23b1b, 0x2626d, 0x2f890, 0x4e24, 0x4eac, 0x4fe9, 0x5006, 0x62d0, 0x6d1e, 0x7695, 0x79ed, 0x920e, 0x94a9,
];
const NUMERIC_BODY = `\\p{N}${NUMERIC_LETTERS.map((cp) => `\\u{${cp.toString(16)}}`).join("")}`;

const DECIMAL = /^\p{Nd}+$/u;
const DIGIT = new RegExp(`^[\\p{Nd}${DIGIT_NOT_DECIMAL}]+$`, "u");
const NUMERIC = new RegExp(`^[${NUMERIC_BODY}]+$`, "u");
const ALNUM = new RegExp(`^[\\p{L}${NUMERIC_BODY}]+$`, "u");
/** CPython's flags: Uppercase and Lowercase are the derived properties; titlecase letters (Lt) count as neither. */
const UPPER = /\p{Uppercase}/u;
const LOWER = /\p{Lowercase}/u;
const TITLE = /\p{Lt}/u;

/** str.isdecimal(): non-empty, every character Nd. */
export function pyIsDecimal(text: string): boolean {
  return DECIMAL.test(text);
}

/** str.isdigit(): decimals plus Numeric_Type=Digit (², ①, ...). */
export function pyIsDigit(text: string): boolean {
  return DIGIT.test(text);
}

/** str.isnumeric(): any Numeric_Type (½, Ⅻ, 五, ...). */
export function pyIsNumeric(text: string): boolean {
  return NUMERIC.test(text);
}

/** str.isalnum(): every character isalpha, isdecimal, isdigit or isnumeric. */
export function pyIsAlnum(text: string): boolean {
  return ALNUM.test(text);
}

/** str.isupper(): some cased character, none lowercase or titlecase. */
export function pyIsUpper(text: string): boolean {
  return casedAs(text, UPPER, LOWER);
}

/** str.islower(): some cased character, none uppercase or titlecase. */
export function pyIsLower(text: string): boolean {
  return casedAs(text, LOWER, UPPER);
}

function casedAs(text: string, wanted: RegExp, other: RegExp): boolean {
  let cased = false;
  for (const ch of text) {
    if (other.test(ch) || TITLE.test(ch)) return false;
    if (wanted.test(ch)) cased = true;
  }
  return cased;
}
