// What every instruction is: IFEval's build_description(**kwargs) then check_following(response), as one
// spec. The verifier turns any exception from either (a Python TypeError, a bad regex, an index out of range)
// into "not followed", exactly as NeMo Gym's try/except does.
import { compilePy } from "./util/pyregex.js";
import { PyError, ge, lt, requireStr, stripStr, truthy } from "./util/python.js";
import { choice, randint, sample } from "./util/random.js";
import { countMatches, search } from "./util/text.js";
import { WORD_LIST } from "./util/words.js";

/** Keyword arguments after NeMo Gym dropped the null ones. */
export type Kwargs = Record<string, unknown>;

/** check_following: the response text to whether it follows the instruction. */
export type Checker = (response: string) => boolean;

export interface InstructionSpec {
  /** build_description's parameter names: any other keyword is a TypeError in Python, so the check fails. */
  params: readonly string[];
  build(kwargs: Kwargs): Checker;
}

export function instruction(params: readonly string[], build: (kwargs: Kwargs) => Checker): InstructionSpec {
  return { params, build };
}

/** IFEval's comparison relations. */
export const RELATIONS = ["less than", "at least"] as const;
export type Relation = (typeof RELATIONS)[number];

/** A relation argument: drawn at random when missing, a ValueError when not one of the two. */
export function relationOf(value: unknown): Relation {
  if (value === undefined) return choice(RELATIONS);
  if (value === "less than" || value === "at least") return value;
  throw new PyError("ValueError", `The supported relation for comparison must be in ${RELATIONS.join(", ")}, but ${String(value)} is given.`);
}

/** `actual < threshold` for "less than", `actual >= threshold` for "at least" (Python comparison rules). */
export function compare(actual: number, relation: Relation, threshold: unknown): boolean {
  return relation === "less than" ? lt(actual, threshold) : ge(actual, threshold);
}

/** `x if x is not None and not x < 0 else random.randint(lo, hi)` — the common numeric-argument default. */
export function countOr(value: unknown, lo: number, hi: number): unknown {
  return value === undefined || lt(value, 0) ? randint(lo, hi) : value;
}

/** One random keyword (instructions_util.generate_keywords(1)[0]), drawn from our own word list (util/words.ts), not IFEval's. */
export function randomKeyword(): string {
  return choice(WORD_LIST);
}

/** Several distinct random keywords (generate_keywords(n)). */
export function randomKeywords(n: number): string[] {
  return sample(WORD_LIST, n);
}

/** `keyword.strip()` if truthy, else a random keyword. */
export function keywordOr(value: unknown): string {
  return truthy(value) ? stripStr(value) : randomKeyword();
}

/** len(re.findall(keyword, response, flags=re.IGNORECASE)) — the keyword is a Python regex. */
export function keywordCount(keyword: unknown, response: string): number {
  return countMatches(compilePy(requireStr(keyword, "first argument"), { ignoreCase: true }).regex, response);
}

/** re.search(pattern, response, flags=re.IGNORECASE) is not None. */
export function keywordFound(pattern: string, response: string): boolean {
  return search(compilePy(pattern, { ignoreCase: true }).regex, response);
}
