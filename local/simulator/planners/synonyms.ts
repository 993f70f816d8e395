// Synonym extraction (NeMo Gym's example_multi_step): pick the query's term, look up its synonyms, extract.
import type { Conversation, ToolInfo } from "../conversation.js";
import { isRecord, words } from "../text.js";
import { outputOf, type Plan, type PlannedCall } from "./types.js";

// Words that name a term's concept without using the term itself ("temperature" is about Hot).
const RELATED: Record<string, string[]> = {
  hot: ["heat", "temperature", "warm", "warmth", "scorching", "sweltering", "hot"],
  cold: ["chill", "chilly", "freezing", "frost", "frozen", "icy", "winter"],
  wet: ["rain", "moisture", "damp", "humid", "humidity", "soaked"],
  dry: ["drought", "arid", "dehydration"],
  fast: ["speed", "quick", "rapid", "velocity"],
  slow: ["sluggish", "delay"],
  loud: ["noise", "noisy"],
  quiet: ["silence", "silent"],
  light: ["bright", "brightness", "sunlight"],
  dark: ["darkness", "shadow"],
  happy: ["joy", "cheerful", "happiness"],
  sad: ["sorrow", "grief", "sadness"],
  strong: ["strength", "power"],
  weak: ["weakness"],
  high: ["height", "altitude"],
  rich: ["wealth", "wealthy"],
  old: ["ancient", "aging", "elderly"],
  young: ["youth", "youthful"],
};

// Inflections a query word may add to a concept word ("temperatures", "heated", "hotter").
const SUFFIXES = ["", "s", "es", "ed", "er", "est", "ing", "ly", "ness", "y"];

export interface TermSynonyms {
  term: string;
  synonyms: string[];
}

/** "The term 'X' has a synonym 'Y'." lines, grouped by term, both in order of appearance. */
export function parseSynonymLines(text: string): TermSynonyms[] {
  const terms = new Map<string, string[]>();
  for (const match of text.matchAll(/The term '([^']+)' has a synonym '([^']+)'/g)) {
    const [, term, synonym] = match;
    if (term === undefined || synonym === undefined) continue;
    const list = terms.get(term) ?? [];
    if (!list.includes(synonym)) list.push(synonym);
    terms.set(term, list);
  }
  return [...terms].map(([term, synonyms]) => ({ term, synonyms }));
}

/** Every form a query word may take to name `base`: the base with each suffix, and with its last letter doubled. */
function inflections(base: string): string[] {
  const doubled = base + base.at(-1);
  return SUFFIXES.flatMap((s) => (s.length > 0 ? [base + s, doubled + s] : [base]));
}

/** The words that name a term, inflected, built once per term (a query is matched word by word against them). */
function conceptForms(entry: TermSynonyms): { direct: Set<string>; related: Set<string> } {
  const base = entry.term
    .replace(/\(.*?\)/g, "")
    .trim()
    .toLowerCase();
  const direct = [base, ...entry.synonyms.map((s) => s.toLowerCase())].filter((w) => !w.includes(" "));
  return { direct: new Set(direct.flatMap(inflections)), related: new Set((RELATED[base] ?? []).flatMap(inflections)) };
}

/**
 * The single term the query is about ("the term you should focus on"). Each query word counts once
 * per term it names. An adjective right before another term's word only qualifies it ("high
 * temperatures" is about heat, not height), so that adjective's match is dropped.
 */
export function pickTerm(query: string, entries: TermSynonyms[]): TermSynonyms | null {
  const forms = entries.map(conceptForms);
  const matches = words(query).map((token) => forms.map(({ direct, related }) => (related.has(token) ? "related" : direct.has(token) ? "direct" : null)));
  const scores = entries.map(() => 0);
  matches.forEach((row, i) => {
    const next = matches[i + 1];
    row.forEach((kind, t) => {
      if (kind === null) return;
      const qualifiesAnother = kind === "direct" && next?.some((k, other) => k !== null && other !== t);
      if (!qualifiesAnother) scores[t] = (scores[t] ?? 0) + 1;
    });
  });
  let best = -1;
  scores.forEach((score, t) => {
    if (score > 0 && (best < 0 || score > scores[best]!)) best = t;
  });
  return best >= 0 ? entries[best]! : null;
}

function synonymTools(tools: ToolInfo[]): { lookup: ToolInfo; extract: ToolInfo } | null {
  const lookup = tools.find((t) => /get_synonym_value/i.test(t.name));
  const extract = tools.find((t) => /extract_synonym_values/i.test(t.name));
  return lookup && extract ? { lookup, extract } : null;
}

function synonymValueOf(output: unknown): number | undefined {
  if (typeof output === "number") return output;
  if (isRecord(output) && typeof output["synonym_value"] === "number") return output["synonym_value"];
  return undefined;
}

export function planSynonyms(conversation: Conversation): Plan | null {
  const tools = synonymTools(conversation.tools);
  if (!tools) return null;
  const entries = parseSynonymLines(`${conversation.system}\n${conversation.user}`);
  if (entries.length === 0) return null;
  const chosen = pickTerm(conversation.user, entries);
  if (!chosen) {
    return { batches: [], answer: () => "None of the listed terms is relevant to the query: []" };
  }
  const lookups: PlannedCall[] = chosen.synonyms.map((synonym) => ({
    name: tools.lookup.name,
    arguments: { synonym },
  }));
  // Values come from the lookups' outputs; until they exist this batch is not emitted anyway.
  const values = lookups.map((call) => synonymValueOf(outputOf(conversation, call))).filter((v) => v !== undefined);
  const extract: PlannedCall = { name: tools.extract.name, arguments: { synonym_values: values } };
  return {
    batches: [lookups, [extract]],
    answer: () => `[${values.join(", ")}]`,
  };
}
