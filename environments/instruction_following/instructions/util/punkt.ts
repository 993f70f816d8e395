// nltk's Punkt sentence tokenizer (Kiss & Strunk 2006), the algorithm IFEval's count_sentences and
// nltk.word_tokenize run: PunktSentenceTokenizer.tokenize(text). Our own implementation of the tokenizing half of
// nltk.tokenize.punkt (3.8–3.9: the ReDoS-safe period-context matching, first and second annotation passes,
// orthographic heuristic and boundary realignment); training is not needed. The parameters it runs with are not
// nltk's pretrained English model but our own (punkt-params.ts), so results can differ from NeMo Gym's around
// abbreviations, initials and numbers; see that file.
import { ABBREVIATIONS as ABBREVS, COLLOCATIONS as COLLOCS, ORTHO_CONTEXT as ORTHO, SENTENCE_STARTERS as STARTERS } from "./punkt-params.js";
import { isLower, isUpper, lower, rstrip, strip, WS } from "./python.js";

const ORTHO_BEG_UC = 1 << 1;
const ORTHO_MID_UC = 1 << 2;
const ORTHO_UNK_UC = 1 << 3;
const ORTHO_BEG_LC = 1 << 4;
const ORTHO_MID_LC = 1 << 5;
const ORTHO_UNK_LC = 1 << 6;
const ORTHO_UC = ORTHO_BEG_UC | ORTHO_MID_UC | ORTHO_UNK_UC;
const ORTHO_LC = ORTHO_BEG_LC | ORTHO_MID_LC | ORTHO_UNK_LC;

// PunktLanguageVars, with Python's Unicode \s and \S.
const S = `[${WS}]`;
const NS = `[^${WS}]`;
const NON_WORD = `(?:[)";}\\]*:@'({[?!])`;
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.${S}){2,}\\.)`;
const WORD_START = '[^("`{[:;&#*@)}\\]\\-,]';
const WORD_TOKENIZER = new RegExp(
  `${MULTI_CHAR}|(?=${WORD_START})${NS}+?(?=${S}|$|${NON_WORD}|${MULTI_CHAR}|,(?=$|${S}|${NON_WORD}|${MULTI_CHAR}))|${NS}`,
  "gu",
);
const PERIOD_CONTEXT = new RegExp(`[.?!](?=(?<after_tok>${NON_WORD}|${S}+(?<next_tok>${NS}+)))`, "gu");
const BOUNDARY_REALIGNMENT = new RegExp(`^["')\\]}]+?(?:${S}+|(?=--)|(?=\\n|$))`, "u");
const NUMERIC = /^-?[.,]?\p{Nd}[\p{Nd},.-]*\.?$/u;
const ELLIPSIS = /^\.\.+$/u;
const INITIAL = /^[\p{L}\p{Nl}\p{No}_]\.$/u;
const SENT_END_CHARS = new Set([".", "?", "!"]);
const PUNCTUATION = new Set([";", ":", ",", ".", "!", "?"]);
const ASCII_WHITESPACE = new Set([" ", "\t", "\n", "\r", "\x0b", "\x0c"]);

interface Token {
  tok: string;
  type: string;
  periodFinal: boolean;
  sentbreak: boolean;
  abbr: boolean;
  ellipsis: boolean;
}

function token(tok: string): Token {
  const lowered = lower(tok);
  return { tok, type: NUMERIC.test(lowered) ? "##number##" : lowered, periodFinal: tok.endsWith("."), sentbreak: false, abbr: false, ellipsis: false };
}

const typeNoPeriod = (t: Token) => ([...t.type].length > 1 && t.type.endsWith(".") ? t.type.slice(0, -1) : t.type);
const typeNoSentperiod = (t: Token) => (t.sentbreak ? typeNoPeriod(t) : t.type);
const firstChar = (t: Token) => [...t.tok][0] ?? "";
const firstUpper = (t: Token) => isUpper(firstChar(t));
const firstLower = (t: Token) => isLower(firstChar(t));

function tokenizeWords(text: string): Token[] {
  const tokens: Token[] = [];
  for (const line of text.split("\n")) {
    if (!strip(line)) continue;
    for (const m of line.matchAll(WORD_TOKENIZER)) tokens.push(token(m[0]));
  }
  return tokens;
}

function firstPass(t: Token): void {
  if (SENT_END_CHARS.has(t.tok)) t.sentbreak = true;
  else if (ELLIPSIS.test(t.tok)) t.ellipsis = true;
  else if (t.periodFinal && !t.tok.endsWith("..")) {
    const base = lower(t.tok.slice(0, -1));
    if (ABBREVS.has(base) || ABBREVS.has(base.split("-").at(-1)!)) t.abbr = true;
    else t.sentbreak = true;
  }
}

/** Whether `t` starts a sentence: true, false or "unknown". */
function orthoHeuristic(t: Token): boolean | "unknown" {
  if (PUNCTUATION.has(t.tok)) return false;
  const context = ORTHO.get(typeNoSentperiod(t)) ?? 0;
  if (firstUpper(t) && context & ORTHO_LC && !(context & ORTHO_MID_UC)) return true;
  if (firstLower(t) && (context & ORTHO_UC || !(context & ORTHO_BEG_LC))) return false;
  return "unknown";
}

function secondPass(t1: Token, t2: Token): void {
  if (!t1.periodFinal) return;
  const typ = typeNoPeriod(t1);
  const nextTyp = typeNoSentperiod(t2);
  const isInitial = INITIAL.test(t1.tok);
  if (COLLOCS.has(`${typ} ${nextTyp}`)) {
    t1.sentbreak = false;
    t1.abbr = true;
    return;
  }
  if ((t1.abbr || t1.ellipsis) && !isInitial) {
    if (orthoHeuristic(t2) === true) {
      t1.sentbreak = true;
      return;
    }
    if (firstUpper(t2) && STARTERS.has(nextTyp)) {
      t1.sentbreak = true;
      return;
    }
  }
  if (isInitial || typ === "##number##") {
    const starter = orthoHeuristic(t2);
    if (starter === false) {
      t1.sentbreak = false;
      t1.abbr = true;
      return;
    }
    if (starter === "unknown" && isInitial && firstUpper(t2) && !((ORTHO.get(nextTyp) ?? 0) & ORTHO_LC)) {
      t1.sentbreak = false;
      t1.abbr = true;
    }
  }
}

function annotate(tokens: Token[]): Token[] {
  for (const t of tokens) firstPass(t);
  for (let i = 0; i + 1 < tokens.length; i++) secondPass(tokens[i]!, tokens[i + 1]!);
  return tokens;
}

/** A sentence break in the context, on any token but the last. */
function containsSentbreak(text: string): boolean {
  const tokens = annotate(tokenizeWords(text));
  return tokens.slice(0, -1).some((t) => t.sentbreak);
}

function lastWhitespaceIndex(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (ASCII_WHITESPACE.has(text[i]!)) return i;
  return 0;
}

interface EndContext {
  end: number;
  nextTokStart: number | undefined;
  context: string;
}

/** Candidate sentence ends with the word before them and the token after (nltk's _match_potential_end_contexts). */
function potentialEndContexts(text: string): EndContext[] {
  const found: EndContext[] = [];
  let prev: [number, number] = [0, 0];
  let prevMatch: RegExpExecArray | undefined;
  const emit = (m: RegExpExecArray, slice: [number, number]) => {
    const after = m.groups!.after_tok!;
    const next = m.groups!.next_tok;
    found.push({
      end: m.index + 1,
      nextTokStart: next ? m.index + 1 + after.length - next.length : undefined,
      context: text.slice(slice[0], slice[1]) + m[0] + after,
    });
  };
  for (const m of text.matchAll(PERIOD_CONTEXT)) {
    let start = lastWhitespaceIndex(text.slice(prev[1], m.index));
    start = start ? start + prev[1] + 1 : prev[0];
    const word: [number, number] = [start, m.index];
    if (prevMatch && prev[1] <= word[0]) emit(prevMatch, prev);
    prevMatch = m;
    prev = word;
  }
  if (prevMatch) emit(prevMatch, prev);
  return found;
}

function slicesFromText(text: string): [number, number][] {
  const slices: [number, number][] = [];
  let lastBreak = 0;
  for (const { end, nextTokStart, context } of potentialEndContexts(text)) {
    if (!containsSentbreak(context)) continue;
    slices.push([lastBreak, end]);
    lastBreak = nextTokStart ?? end;
  }
  slices.push([lastBreak, rstrip(text).length]);
  return slices;
}

function realignBoundaries(text: string, slices: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let realign = 0;
  for (let i = 0; i < slices.length; i++) {
    const s1: [number, number] = [slices[i]![0] + realign, slices[i]![1]];
    const s2 = slices[i + 1];
    if (!s2) {
      if (text.slice(s1[0], s1[1])) out.push(s1);
      continue;
    }
    const m = BOUNDARY_REALIGNMENT.exec(text.slice(s2[0], s2[1]));
    if (m) {
      out.push([s1[0], s2[0] + rstrip(m[0]).length]);
      realign = m[0].length;
    } else {
      realign = 0;
      if (text.slice(s1[0], s1[1])) out.push(s1);
    }
  }
  return out;
}

/** PunktSentenceTokenizer.tokenize(text) with our English parameters (punkt-params.ts). */
export function sentTokenize(text: string): string[] {
  return realignBoundaries(text, slicesFromText(text)).map(([a, b]) => text.slice(a, b));
}

/** instructions_util.count_sentences. */
export function countSentences(text: string): number {
  return realignBoundaries(text, slicesFromText(text)).length;
}
