// nltk.word_tokenize(text): Punkt sentences, each split by nltk's NLTKWordTokenizer (the improved Treebank
// tokenizer), with Python's Unicode \w, \b, \s and \d.
import { sentTokenize } from "./punkt.js";
import { BOUNDARY, WORD, WS, split } from "./python.js";

const re = (source: string, flags = "") => new RegExp(source, `gu${flags}`);
const B = BOUNDARY;

type Rule = [RegExp, string];

const STARTING_QUOTES: Rule[] = [
  [re("([«“‘„]|[`]+)"), " $1 "],
  [/^"/u, "``"],
  [re("(``)"), " $1 "],
  [re(`([ ([{<])("|'{2})`), "$1 `` "],
  [re(`(')(?!re|ve|ll|m|t|s|d|n)([${WORD}])${B}`, "i"), "$1 $2"],
];

const PUNCTUATION: Rule[] = [
  [re(`([^.])(\\.)([\\])}>"'»”’ ]*)[${WS}]*$`), "$1 $2 $3 "],
  [re("([:,])([^\\p{Nd}])"), " $1 $2"],
  [re("([:,])(?=\\n?$)"), " $1 "],
  [re("\\.{2,}"), " $& "],
  [re("[;@#$%&]"), " $& "],
  [re(`([^.])(\\.)([\\])}>"']*)[${WS}]*$`), "$1 $2$3 "],
  [re("[?!]"), " $& "],
  [re("([^'])' "), "$1 ' "],
  [re("[*]"), " $& "],
];

const PARENS_BRACKETS: Rule = [re("[\\][(){}<>]"), " $& "];
const DOUBLE_DASHES: Rule = [re("--"), " -- "];

const ENDING_QUOTES: Rule[] = [
  [re("([»”’])"), " $1 "],
  [re("''"), " '' "],
  [re('"'), " '' "],
  [re("([^' ])('[sS]|'[mM]|'[dD]|') "), "$1 $2 "],
  [re("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), "$1 $2 "],
];

const CONTRACTIONS: RegExp[] = [
  re(`${B}(can)(not)${B}`, "i"),
  re(`${B}(d)('ye)${B}`, "i"),
  re(`${B}(gim)(me)${B}`, "i"),
  re(`${B}(gon)(na)${B}`, "i"),
  re(`${B}(got)(ta)${B}`, "i"),
  re(`${B}(lem)(me)${B}`, "i"),
  re(`${B}(more)('n)${B}`, "i"),
  re(`${B}(wan)(na)(?=[${WS}])`, "i"),
  re(` ('t)(is)${B}`, "i"),
  re(` ('t)(was)${B}`, "i"),
];

/**
 * Python's `$` outside MULTILINE also matches before a final "\n"; the rules ending in `\s*$` already
 * consume it, and "([:,])$" is written as a lookahead for the same reason.
 */
function apply(text: string, [pattern, replacement]: Rule): string {
  return text.replace(pattern, replacement);
}

/** NLTKWordTokenizer().tokenize(text). */
export function treebankTokenize(input: string): string[] {
  let text = input;
  for (const rule of STARTING_QUOTES) text = apply(text, rule);
  for (const rule of PUNCTUATION) text = apply(text, rule);
  text = apply(text, PARENS_BRACKETS);
  text = apply(text, DOUBLE_DASHES);
  text = ` ${text} `;
  for (const rule of ENDING_QUOTES) text = apply(text, rule);
  for (const pattern of CONTRACTIONS) text = text.replace(pattern, " $1 $2 ");
  return split(text);
}

/** nltk.word_tokenize(text): sentence-split with Punkt, then tokenized sentence by sentence. */
export function wordTokenize(text: string): string[] {
  return sentTokenize(text).flatMap((sentence) => treebankTokenize(sentence));
}
