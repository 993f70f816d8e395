// language:response_language — the whole response is in the requested language (IFEval asks langdetect;
// see util/langdetect.ts for the stand-in used here and how it differs).
import { instruction, type InstructionSpec } from "./base.js";
import { detectLanguage } from "./util/langdetect.js";
import { PyError } from "./util/python.js";
import { choice } from "./util/random.js";

/** IFEval's LANGUAGE_CODES: a requested language outside these raises a KeyError, so it is never followed. */
export const LANGUAGE_CODES: Readonly<Record<string, string>> = {
  en: "English",
  es: "Spanish",
  pt: "Portuguese",
  ar: "Arabic",
  hi: "Hindi",
  fr: "French",
  ru: "Russian",
  de: "German",
  ja: "Japanese",
  it: "Italian",
  bn: "Bengali",
  uk: "Ukrainian",
  th: "Thai",
  ur: "Urdu",
  ta: "Tamil",
  te: "Telugu",
  bg: "Bulgarian",
  ko: "Korean",
  pl: "Polish",
  he: "Hebrew",
  fa: "Persian",
  vi: "Vietnamese",
  ne: "Nepali",
  sw: "Swahili",
  kn: "Kannada",
  mr: "Marathi",
  gu: "Gujarati",
  pa: "Punjabi",
  ml: "Malayalam",
  fi: "Finnish",
};

/** langdetect.detect(response) == expected, where "cannot detect" counts as followed. */
export function detectedAs(response: string, expected: string): boolean {
  const detected = detectLanguage(response);
  return detected === null || detected === expected;
}

export const responseLanguage = instruction(["language"], ({ language }) => {
  const code = language === undefined ? choice(Object.keys(LANGUAGE_CODES)) : language;
  if (typeof code !== "string" || !Object.hasOwn(LANGUAGE_CODES, code)) throw new PyError("KeyError", String(code));
  return (response) => detectedAs(response, code);
});

export const LANGUAGE: Record<string, InstructionSpec> = {
  "language:response_language": responseLanguage,
};
