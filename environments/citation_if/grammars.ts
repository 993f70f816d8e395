// NeMo Gym's citation_if grammar table: each citation grammar's Python pattern, compiled per row against its id_regex.
import { pythonFindall } from "../sdk/python/findall.js";
import { pySearch } from "../sdk/python/match.js";
import { compilePythonRegex, type CompiledPythonRegex } from "../sdk/python/regex.js";

export interface Grammar {
  /** Python pattern; "{IDS}" is replaced with the row's ID sub-pattern. Group 1 captures the ID(s). */
  template: string;
  /** Several comma-separated IDs in one span. */
  multi: boolean;
  dotAll?: boolean;
  /** The group holding a wrapped claim (an empty claim is not a citation). */
  claimGroup?: number;
  /** Tag markers for the balance check (Python patterns, IGNORECASE). */
  open?: string;
  close?: string;
  /** A dev-holdout grammar, never assigned to training rows. */
  holdout: boolean;
}

const CITE_TAGS = { open: "<cite\\b", close: "</cite\\s*>" };

export const GRAMMARS: Readonly<Record<string, Grammar>> = {
  cite_xml: { template: "<cite>({IDS})</cite>", multi: true, ...CITE_TAGS, holdout: false },
  ascii_brackets: { template: "\\[({IDS})\\](?!\\()", multi: false, holdout: false },
  claim_wrap_xml: { template: '<cite index="({IDS})">(.*?)</cite>', multi: true, dotAll: true, claimGroup: 2, ...CITE_TAGS, holdout: false },
  fullwidth_brackets: { template: "【({IDS})】", multi: false, holdout: false },
  ref_colon: { template: "\\[ref:({IDS})\\]", multi: false, holdout: false },
  double_angle: { template: "<<({IDS})>>", multi: false, holdout: false },
  web_brackets: { template: "\\[web:({IDS})\\]", multi: false, holdout: false },
  paren_part: { template: "\\(({IDS})\\)", multi: false, holdout: false },
  markdown_footnote: { template: "\\[\\^({IDS})\\]", multi: false, holdout: false },
  curly_double: { template: "\\{\\{({IDS})\\}\\}", multi: false, holdout: true },
  angle_pipe: { template: "<ref\\|({IDS})>", multi: false, holdout: true },
};

export const ATTEMPT_REGEX = "citation_[A-Za-z0-9_:]+";

/** Fallback id_regex by id_kind, for rows that omit one. */
export const DEFAULT_ID_REGEX: Readonly<Record<string, string>> = {
  full_source: "citation_[0-9]+",
  snippet: "citation_[0-9]+:snippet_[0-9]+",
};

export const TERMINAL_TOOL_RESPONSE = "No further tool results are available. Provide your final answer.";

/** compile_grammar: the grammar's pattern for one ID scheme, global with match indices (for spans). */
export function compileGrammar(grammar: Grammar, idRegex: string): CompiledPythonRegex {
  const ids = grammar.multi ? `(?:${idRegex})(?:,(?:${idRegex}))*` : `(?:${idRegex})`;
  // String replace, not a template: grammars hold literal regex braces; a function keeps `$` in ids literal.
  return compilePythonRegex(
    grammar.template.replaceAll("{IDS}", () => ids),
    { dotAll: grammar.dotAll ?? false },
    "gd",
  );
}

/** How many times a Python pattern (IGNORECASE) matches: len(re.findall(...)). */
export function countMatches(pattern: string, text: string): number {
  return pythonFindall(pattern, text, true).length;
}

/** re.search(pattern, text, flags) is not None. */
export function pySearches(pattern: string, text: string, ignoreCase = false): boolean {
  return pySearch(pattern, text, { ignoreCase }) !== null;
}
