// NeMo Gym's citation_if scorer (scorer.py): the gate sequence over a response's citations, with its match_details.
import { parsePyInt } from "../sdk/python/numbers.js";
import { pyStrip } from "../sdk/python/text.js";
import { ATTEMPT_REGEX, compileGrammar, countMatches, DEFAULT_ID_REGEX, GRAMMARS, type Grammar, pySearches } from "./grammars.js";

interface Span {
  start: number;
  end: number;
  ids: string;
  /** The claim group's [start, end) when the grammar has one and it matched. */
  claim?: [number, number];
}

/** _iter_spans: the well-formed spans; a claim-wrap grammar drops empty claims. */
function iterSpans(grammar: Grammar, idRegex: string, text: string): Span[] {
  const compiled = compileGrammar(grammar, idRegex);
  const regex = compiled.regex;
  regex.lastIndex = 0;
  const spans: Span[] = [];
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    if (m[0] === "") regex.lastIndex++;
    const claimGroup = grammar.claimGroup;
    const claimIndices = claimGroup === undefined ? undefined : m.indices?.groups?.[`g${claimGroup}`];
    if (claimGroup !== undefined && !pyStrip(m.groups?.[`g${claimGroup}`] ?? "")) continue;
    spans.push({ start: m.index, end: m.index + m[0].length, ids: m.groups!.g1!, claim: claimIndices ?? undefined });
  }
  return spans;
}

/** Blank [start, end) of each span, keeping each span's claim when `keepClaims`. */
function blank(text: string, spans: Span[], keepClaims: boolean): string {
  if (spans.length === 0) return text;
  const out = text.split("");
  for (const span of spans) {
    const keep = keepClaims ? span.claim : undefined;
    for (let i = span.start; i < span.end; i++) if (!(keep && keep[0] <= i && i < keep[1])) out[i] = " ";
  }
  return out.join("");
}

/** int(value) for the verifier's counts: ints, floats truncated, bools, int-like strings; anything else raises. */
function pyInt(value: unknown, key: string): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number" && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === "string") {
    const parsed = parsePyInt(value);
    if (parsed !== null) return parsed;
  }
  throw new TypeError(`verifier.${key} must be an integer (int() raised on ${JSON.stringify(value)})`);
}

const byCodePoint = (a: string, b: string) => {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
  return x.length - y.length;
};

/** set(value or []) of the strings Python could find in it (a str iterates its characters). */
function pySet(value: unknown): Set<unknown> {
  if (!value) return new Set();
  if (typeof value === "string") return new Set([...value]);
  if (Array.isArray(value)) return new Set(value);
  if (typeof value === "object") return new Set(Object.keys(value));
  throw new TypeError(`${JSON.stringify(value)} is not iterable`);
}

export type Details = Record<string, unknown>;

/** score_citation_if(text, function_call_count, verifier) → [reward, match_details]. */
export function scoreCitationIf(text: string, functionCallCount: number, verifier: Record<string, unknown>): [number, Details] {
  const get = (key: string, fallback: unknown) => (Object.hasOwn(verifier, key) ? verifier[key] : fallback);
  const grammarName = get("grammar", "");
  const idKind = get("id_kind", "full_source");
  const validIdSet = pySet(get("valid_id_set", null));
  const expectedIds = get("expected_ids", null);
  const minValid = pyInt(get("min_valid_citations", 1), "min_valid_citations");
  const mode = get("mode", "cite");

  if (typeof grammarName !== "string" || !Object.hasOwn(GRAMMARS, grammarName)) {
    return [0.0, { gate_failed: "unknown_grammar", grammar: grammarName }];
  }
  const grammar = GRAMMARS[grammarName]!;
  const explicit = get("id_regex", null);
  const fallback = typeof idKind === "string" && Object.hasOwn(DEFAULT_ID_REGEX, idKind) ? DEFAULT_ID_REGEX[idKind]! : DEFAULT_ID_REGEX.full_source!;
  if (explicit && typeof explicit !== "string") throw new TypeError("verifier.id_regex must be a string");
  const idRegex = (explicit as string) || fallback;

  const structuralOk = pyStrip(text) !== "" && functionCallCount === 0;
  const details = (gateFailed: string | null, parsed: string[], valid: string[], invalid: string[], attemptHits: boolean, more: Details = {}): Details => ({
    gate_failed: gateFailed,
    mode,
    grammar: grammarName,
    id_kind: idKind,
    id_regex: idRegex,
    structural_ok: structuralOk,
    function_call_count: functionCallCount,
    attempt_hits: attemptHits,
    bare_id_hits: attemptHits,
    parsed_ids: parsed,
    cited_ids: valid,
    valid_cited: valid,
    invalid_cited: invalid,
    num_valid_cited: valid.length,
    expected_ids: null,
    missed_ids: [],
    over_cap: false,
    ...more,
  });
  if (!structuralOk) return [0.0, details("structural", [], [], [], false)];

  const spans = iterSpans(grammar, idRegex, text);
  const parsedIds = [...new Set(spans.flatMap((s) => s.ids.split(",")))];
  const validCited = parsedIds.filter((id) => validIdSet.has(id));
  const invalidCited = parsedIds.filter((id) => !validIdSet.has(id));
  const attemptHits = pySearches(ATTEMPT_REGEX, text, true);
  const fail = (gate: string) => [0.0, details(gate, parsedIds, validCited, invalidCited, attemptHits)] as [number, Details];

  if (mode === "no_cite") {
    const anyMarkup = spans.length > 0 || (grammar.open !== undefined && pySearches(grammar.open, text, true));
    const reward = !attemptHits && !anyMarkup ? 1.0 : 0.0;
    return [reward, details(reward === 1.0 ? null : "no_cite", parsedIds, validCited, invalidCited, attemptHits)];
  }
  // Gate 0b: some word character outside the citation markup (a wrapped claim counts).
  if (!pySearches("\\w", blank(text, spans, true))) return fail("no_answer");
  // Gate 1: every ID-shaped token inside a well-formed span; tag grammars balanced.
  const balanced =
    grammar.open === undefined ||
    grammar.close === undefined ||
    (countMatches(grammar.open, text) === spans.length && spans.length === countMatches(grammar.close, text));
  if (pySearches(ATTEMPT_REGEX, blank(text, spans, false), true) || !balanced) return fail("malformed_attempt");
  if (validCited.length < minValid) return fail("must_cite");
  if (invalidCited.length > 0) return fail("no_hallucination");

  let missedIds: unknown[] = [];
  let overCap = false;
  if (expectedIds !== null && expectedIds !== undefined) {
    const slack = pyInt(get("expected_slack", 1), "expected_slack");
    const expectedSet = pySet(expectedIds);
    const cited = new Set<unknown>(validCited);
    missedIds = [...expectedSet].filter((id) => !cited.has(id));
    if (missedIds.some((id) => typeof id !== "string")) throw new TypeError("verifier.expected_ids must hold strings");
    (missedIds as string[]).sort(byCodePoint);
    overCap = validCited.length > expectedSet.size + slack;
    const listed = Array.isArray(expectedIds) ? [...expectedIds] : typeof expectedIds === "string" ? [...expectedIds] : [...expectedSet];
    const logged = { expected_ids: listed, missed_ids: missedIds, over_cap: overCap };
    if (missedIds.length > 0 || overCap) {
      return [
        0.0,
        details(missedIds.length > 0 ? "correctness_missed_gold" : "correctness_over_cap", parsedIds, validCited, invalidCited, attemptHits, logged),
      ];
    }
    return [1.0, details(null, parsedIds, validCited, invalidCited, attemptHits, logged)];
  }
  return [1.0, details(null, parsedIds, validCited, invalidCited, attemptHits, { missed_ids: missedIds, over_cap: overCap })];
}
