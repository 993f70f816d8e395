// Punkt parameters for English, written for this project. They are NOT nltk's pretrained English model
// (nltk_data's english.pickle / punkt_tab), which NeMo Gym loads: that model was trained on a large news corpus
// and holds ~150 abbreviation types, collocations, frequent sentence starters and the orthographic context of
// some 20,000 word types. None of it is used here. Instead:
//
// - ABBREVIATIONS is our own short list of common English abbreviations. nltk's model knows many rarer ones
//   (state names, military ranks, corporate suffixes seen in its corpus) that this list does not, and it lacks
//   some common ones this list has (cf., al., no., fig., approx.). It also lacks "e.g.", "i.e." and "etc.", so nltk
//   ends a sentence after each; this list leaves them out too, to count sentences as NeMo Gym does.
// - There are no collocations (word pairs the trained model keeps together across a period, mostly
//   "##number## <word>") and no list of frequent sentence starters.
// - The orthographic context is not learned from a corpus but derived by one rule (see ORTHO_CONTEXT): the
//   words in LOWERCASE_WORDS are determiners and pronouns, which English writes in lowercase inside a sentence
//   and capitalizes only to start one. Every other word has no orthographic evidence at all.
//
// So sentence counts can differ from NeMo Gym's where a period follows an abbreviation, an initial or a number
// and the next word is capitalized: after a known abbreviation, an initial ("A.") or an ellipsis, a new sentence
// starts only when the next word is one of LOWERCASE_WORDS (nltk also breaks before any word its corpus showed in
// lowercase, e.g. "Then", and before its sentence starters, e.g. "However"); after an abbreviation this list
// lacks, the period ends a sentence whatever follows. Ordinary sentence ends ("word. Next"), "?", "!", decimals
// and numbered-list markers behave as in nltk.

/** Abbreviations, lowercase and without their final period, as Punkt stores abbreviation types. */
export const ABBREVIATIONS: ReadonlySet<string> = new Set([
  // Titles and honorifics.
  "mr",
  "mrs",
  "ms",
  "messrs",
  "dr",
  "prof",
  "sr",
  "jr",
  "st",
  "rev",
  "hon",
  "gen",
  "col",
  "capt",
  "lt",
  "sgt",
  "gov",
  "sen",
  "rep",
  "mt",
  // Latin and scholarly.
  "vs",
  "cf",
  "al",
  "viz",
  "ca",
  "approx",
  "no",
  "nos",
  "fig",
  "figs",
  "vol",
  "vols",
  "pp",
  "ch",
  "dept",
  "univ",
  "est",
  // Months and weekdays ("may", "sat", "sun" and "wed" are left out: they are ordinary words too).
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
  "mon",
  "tue",
  "tues",
  "thu",
  "thur",
  "thurs",
  "fri",
  // Companies and addresses.
  "inc",
  "ltd",
  "co",
  "corp",
  "llc",
  "plc",
  "bros",
  "ave",
  "blvd",
  "rd",
  // Units.
  "ft",
  "oz",
  "lb",
  "lbs",
  // Dotted forms: places, degrees, times of day.
  "u.s",
  "u.s.a",
  "u.k",
  "u.n",
  "e.u",
  "d.c",
  "ph.d",
  "m.d",
  "b.a",
  "m.a",
  "b.sc",
  "m.sc",
  "a.m",
  "p.m",
]);

/**
 * Words English writes in lowercase inside a sentence: articles, demonstratives, personal pronouns and
 * possessive determiners, interrogative "what"/"which", and existential "there". One-letter words ("a", "I") are
 * left out because a capital letter followed by a period is read as an initial ("A. Smith"); "who" is left out
 * because it is part of names ("Dr. Who"), and object pronouns because "US" and "IT" are common acronyms.
 */
export const LOWERCASE_WORDS: readonly string[] = [
  "the",
  "an",
  "this",
  "that",
  "these",
  "those",
  "he",
  "she",
  "it",
  "we",
  "you",
  "they",
  "my",
  "your",
  "his",
  "her",
  "its",
  "our",
  "their",
  "what",
  "which",
  "there",
];

/** Punkt's orthographic flag "seen lowercase in the middle of a sentence" (nltk's _ORTHO_MID_LC). */
export const ORTHO_MID_LC = 1 << 5;

/**
 * The orthographic context by our rule: each of LOWERCASE_WORDS as seen lowercase mid-sentence and never
 * capitalized mid-sentence, so Punkt's orthographic heuristic reads it, capitalized, as a sentence start.
 */
export const ORTHO_CONTEXT: ReadonlyMap<string, number> = new Map(LOWERCASE_WORDS.map((word) => [word, ORTHO_MID_LC]));

/** Collocations ("first second" type pairs never split by a period): none. */
export const COLLOCATIONS: ReadonlySet<string> = new Set();

/** Frequent sentence starters: none (the orthographic rule above covers the words we would list). */
export const SENTENCE_STARTERS: ReadonlySet<string> = new Set();
