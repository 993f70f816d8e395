// The answer-locating regexes of math_verify 0.8.0 (expression and LaTeX targets), with their priorities.
// Python patterns are rewritten for JavaScript: named groups, `(?i:…)` spelled as character classes,
// Python's `$` (end, or before a final newline) and non-DOTALL `.` (anything but a newline).

export interface Pattern {
  regex: RegExp;
  priority: number;
  target: "expr" | "latex";
}

/** `(?i:text)`: each letter as a two-case class (JavaScript on Node 20 has no inline modifiers). */
function ci(text: string): string {
  return [...text].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch)).join("");
}

const PY_END = "(?:$|(?=\\n$))";
/** `.` without DOTALL. */
const DOT = "[^\\n]";
/** `.` with DOTALL. */
const ANY = "[\\s\\S]";

// ── Expressions and numbers in plain text ──────────────────────────────────────────────

const NUMBER =
  "(?<!\\d)(?:" +
  "(?<integer1>-?[1-9]\\d{0,2}(?:[ ,]\\d{3})+)(?<decimal1>\\.\\d+)?|" +
  "(?<integer2>-?\\d+)(?<decimal2>[.,]\\d+)|" +
  "(?<decimal3>\\.\\d+)|" +
  "(?<integer3>-?\\d+)" +
  ")(?<percent>\\s*(?:%|[Pp]ercent|\\s*[Pp]ercentage|\\s*[Pp]ct))?";

const OPERATORS = "+\\-*×/^()÷";
const EXPR_CHAR = `[\\d.\\s${OPERATORS}]`;
const EXPR = `(?<expr>-?\\(?-?\\d${EXPR_CHAR}*[${OPERATORS}]${EXPR_CHAR}+\\)?)`;
const CURRENCY = "[$€£¥₹₽₪₩₫฿₡₢₣₤₥₦₧₨₩₪₫₭₮₯₰₱₲₳₴₵₶₷₸₹₺₻₼₽₾₿]";
const EXPR_PREFIX = "(?:^|\\s|=)(?:\\*\\*)?";
const EXPR_SUFFIX = `(?:\\*\\*)?(?:\\.|,|:|\\s|\\)|\\$|${PY_END})`;
const EXPR_WITH_ANCHORS = `(?:${EXPR_PREFIX}${EXPR}${EXPR_SUFFIX})`;
const NUMBER_WITH_ANCHORS = `(?:${EXPR_PREFIX}${CURRENCY}?${NUMBER})`;
const EXPR_OR_NUMBER = `(?:${EXPR_WITH_ANCHORS}|${NUMBER_WITH_ANCHORS})`;

const EXPR_PATTERNS: [string, number][] = [
  [`${ci("final answer is")}:?\\s*${EXPR_OR_NUMBER}\\.?\\s?I hope`, 0],
  [`${ci("final answer")}${DOT}{0,100}?\\s+is:?${EXPR_OR_NUMBER}`, 50],
  [`${ci("answer")}:(?:${DOT}{0,100}=\\s*|${DOT}{0,50}?)${EXPR_OR_NUMBER}(?!\\s*=)`, 100],
  [`${ci("answer")}(?:${DOT}{0,100}=\\s*|${DOT}{0,50}?)${EXPR_OR_NUMBER}(?!\\s*=)`, 200],
  [EXPR_WITH_ANCHORS, 300],
  [NUMBER_WITH_ANCHORS, 300],
];

// ── LaTeX environments ────────────────────────────────────────────────────────────────

function latexEnvironment(prefix: string, context: "boxed" | "plain"): string {
  const percent = `(?<${prefix}percent>(?:\\\\?%|[Pp]ercent|[Pp]ercentage|[Pp]ct))`;
  const contents = {
    displayDollar: "(?:[^$]|\\$(?!\\$))",
    displayBracket: "(?:[^\\\\]|\\\\(?!\\]))",
    inlineDollar: "(?:\\\\[$]|[^\\n$])",
    inlineParenthesis: "(?:[^\\\\\\n]|\\\\(?!\\)))",
    inlineBracket: "[^\\n\\]\\[]",
  };
  const content = (c: string) => (context === "boxed" ? `${c}*?\\\\boxed\\{${c}+?\\}${c}*?` : `${c}+?`);
  const patterns = [
    `(?<!\\\\)\\$\\$(?<${prefix}latexDisplayDollar>${content(contents.displayDollar)})(?<!\\\\)\\$\\$`,
    `(?<!\\\\)\\\\\\[(?<${prefix}latexDisplayBracket>${content(contents.displayBracket)})(?<!\\\\)\\\\\\]`,
    `(?<!\\\\|\\d)\\$(?<${prefix}latexInlineDollar>${content(contents.inlineDollar)})(?<!\\\\)\\$`,
    `(?<!\\\\)\\\\\\((?<${prefix}latexInlineParenthesis>${content(contents.inlineParenthesis)})(?<!\\\\)\\\\\\)`,
    `\\s\\[(?<${prefix}latexInlineBracket>${content(contents.inlineBracket)})\\]\\s`,
  ];
  if (context === "plain") {
    const simpleNumber = "-?\\d+(?:[.,]\\d+)?";
    patterns.push(`(?<${prefix}latexFraction>-?\\\\frac\\{${simpleNumber}\\}\\{${simpleNumber}\\})`);
  }
  return `(?:(?:${patterns.join("|")})\\s*${percent}?)`;
}

function latexPatterns(): [string, number][] {
  const nexts = [1, 2, 3, 4, 5];
  const envs = `(?:${latexEnvironment("first_", "plain")}${nexts
    .map((i) => `(?:\\s*(?:,?and|,?or|,)\\s*${latexEnvironment(`next${i}_`, "plain")})?`)
    .join("")})`;
  const boxedEnvs = `${latexEnvironment("first_", "boxed")}${nexts
    .map((i) => `\\s*(?:\\s*(?:,?and|,?or|,)\\s*${latexEnvironment(`next${i}_`, "boxed")})?`)
    .join("")}`;
  return [
    [`${ci("final answer is")}:?\\s*${envs}\\.?\\s?I hope`, 0],
    [`${ci("final answer")}${ANY}{0,100}?\\s+is:?\\s*${envs}`, 50],
    [`${ci("answer")}:${ANY}{0,50}?${envs}`, 100],
    [`${ci("answer")}${ANY}{0,50}?${envs}`, 200],
    [envs, 300],
    [boxedEnvs, 50],
    // A plain \boxed{…} runs to the last closing brace; the box itself is cut out during normalization.
    [`(?<first_latexBoxed>\\\\boxed\\{${ANY}+\\})`, 50],
  ];
}

function compile(sources: [string, number][], target: Pattern["target"]): Pattern[] {
  return sources.map(([source, priority]) => ({ regex: new RegExp(source, "g"), priority, target }));
}

/** The prediction's targets, in math_verify's order (expressions, then LaTeX), sorted by priority (stable). */
export const PREDICTION_PATTERNS: Pattern[] = [...compile(EXPR_PATTERNS, "expr"), ...compile(latexPatterns(), "latex")]
  .map((pattern, order) => ({ pattern, order }))
  .sort((a, b) => a.pattern.priority - b.pattern.priority || a.order - b.order)
  .map(({ pattern }) => pattern);

/** The gold answer's targets: LaTeX only. */
export const GOLD_PATTERNS: Pattern[] = PREDICTION_PATTERNS.filter((pattern) => pattern.target === "latex");
