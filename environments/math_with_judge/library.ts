// NeMo Gym's library check (_run_math_verify): math_verify's score, and the extracted answer it reports.
import { verifyExtractions, type Extracted } from "./equivalence.js";
import { extractGold, extractPrediction, type Extraction } from "./extract.js";
import { sympyString } from "./sympy-str.js";

export interface LibraryVerdict {
  /** 1.0 when the answer matches the expected one symbolically, else 0.0. */
  reward: number;
  /** The answer found, as SymPy prints it ("83/499", "sqrt(2)"), or null when none was found. */
  extractedAnswer: string | null;
}

/** parse()'s list: the parsed value first, then the text of the first candidate. */
function listOf(extraction: Extraction): Extracted[] {
  const list: Extracted[] = [];
  if (extraction.value) list.push(extraction.value);
  if (extraction.text !== null) list.push(extraction.text);
  return list;
}

const text = (x: Extracted) => (typeof x === "string" ? x : sympyString(x));

/**
 * Compare `generated` with `expected` (math_verify's math_metric: gold as LaTeX in \boxed{}, the
 * prediction as an expression or LaTeX). The reported answer is the first prediction whose text
 * equals a gold text, else the first prediction. Any failure scores 0 with no answer, as in NeMo Gym.
 */
export function verifyWithLibrary(expected: string, generated: string): LibraryVerdict {
  try {
    const golds = listOf(extractGold(expected));
    // math_verify raises when the gold yields nothing; NeMo Gym turns that into (0.0, None).
    if (golds.length === 0) return { reward: 0, extractedAnswer: null };
    const preds = listOf(extractPrediction(generated));
    const reward = verifyExtractions(golds, preds) ? 1 : 0;
    const goldTexts = golds.map(text);
    const predTexts = preds.map(text);
    const matching = predTexts.find((p) => goldTexts.some((g) => g.trim() !== "" && g.trim() === p.trim()));
    return { reward, extractedAnswer: matching ?? predTexts[0] ?? null };
  } catch {
    // math_verify's own failures are a score of 0 in NeMo Gym, never an error of the rollout.
    return { reward: 0, extractedAnswer: null };
  }
}
