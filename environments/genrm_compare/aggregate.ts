// NeMo Gym's genrm_compare aggregate_scores ("simple_tiebreaker") with its length bonuses; style penalties not ported.
import { pyLen, pyStrip } from "../sdk/python/index.js";
import { extractFromResponseObj, RANKING_MIDPOINT, type Scores } from "./genrm.js";

export interface AggregateOptions {
  aggregatorMethod: string;
  defaultScore: number;
  reasoningBonus: number;
  answerBonus: number;
  topPercentile: number;
  groupReasoningLengthPenaltyCoeff: number;
  groupAnswerLengthPenaltyCoeff: number;
  groupStylePenaltyCoeff?: number;
}

export interface Aggregated {
  rewards: number[];
  metrics: { mean_individual_score?: number; std_individual_score?: number; tiebreak_usage_rate?: number };
  baseScores: number[];
  bonuses: number[];
}

/** _compute_length_weights: zero-centred weights, shorter = higher. */
function lengthWeights(lengths: number[]): number[] {
  const max = Math.max(...lengths);
  const min = Math.min(...lengths);
  if (max === min) return lengths.map(() => 0);
  const raw = lengths.map((length) => 1 - (length - min) / (max - min));
  const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
  return raw.map((w) => w - mean);
}

/** apply_length_bonuses: shortest reasoning/answer among the top scorers gets a bonus; group-relative length weights. */
function applyLengthBonuses(scores: number[], responseObjs: unknown[], options: AggregateOptions): number[] {
  const bonuses = scores.map(() => 0);
  if (responseObjs.length < 2) return bonuses;
  const extracted = responseObjs.map(extractFromResponseObj);
  const reasoningLengths = extracted.map(([reasoning]) => pyLen(pyStrip(reasoning)));
  const answerLengths = extracted.map(([, answer]) => pyLen(pyStrip(answer)));
  const sorted = [...scores].sort((a, b) => b - a);
  const topThreshold = sorted[Math.max(0, Math.trunc(scores.length * options.topPercentile) - 1)]!;
  const shortestBonus = (lengths: number[], bonus: number) => {
    if (!(bonus > 0)) return;
    // min() over (index, length) pairs keyed by length: the first shortest non-empty one.
    let best = -1;
    lengths.forEach((length, i) => {
      if (length > 0 && (best < 0 || length < lengths[best]!)) best = i;
    });
    if (best >= 0 && scores[best]! >= topThreshold) {
      scores[best]! += bonus;
      bonuses[best]! += bonus;
    }
  };
  shortestBonus(reasoningLengths, options.reasoningBonus);
  shortestBonus(answerLengths, options.answerBonus);
  if (options.groupReasoningLengthPenaltyCoeff > 0 || options.groupAnswerLengthPenaltyCoeff > 0) {
    const reasoningWeights = lengthWeights(reasoningLengths);
    const answerWeights = lengthWeights(answerLengths);
    for (let i = 0; i < responseObjs.length; i++) {
      const total = reasoningWeights[i]! * options.groupReasoningLengthPenaltyCoeff + answerWeights[i]! * options.groupAnswerLengthPenaltyCoeff;
      if (total !== 0) {
        scores[i]! += total;
        bonuses[i]! += total;
      }
    }
  }
  return bonuses;
}

/** aggregate_scores: per-response mean of its pairwise scores, ties broken by ranking around 3.5, then length bonuses. */
export function aggregateScores(
  results: readonly Scores[],
  metadata: readonly (readonly [number, number, number])[],
  responseObjs: unknown[],
  options: AggregateOptions,
): Aggregated {
  if (options.aggregatorMethod !== "simple_tiebreaker") {
    throw new Error(`Unsupported aggregator_method: '${options.aggregatorMethod}'. Supported: ['simple_tiebreaker']`);
  }
  if ((options.groupStylePenaltyCoeff ?? 0) > 0) throw new Error("group_style_penalty_coeff is not ported (NeMo Gym's style density penalty)");
  const n = responseObjs.length;
  const accumulated = new Array<number>(n).fill(0);
  const counts = new Array<number>(n).fill(0);
  const individual: number[] = [];
  let tiebreaks = 0;
  const pairs = Math.min(results.length, metadata.length);
  for (let k = 0; k < pairs; k++) {
    let [score1, score2, ranking] = results[k]!;
    const [i, j] = metadata[k]!;
    individual.push(score1, score2);
    if (score1 === score2) {
      tiebreaks += 1;
      const adjustment = RANKING_MIDPOINT - ranking;
      score1 += adjustment;
      score2 -= adjustment;
    }
    accumulated[i]! += score1;
    accumulated[j]! += score2;
    counts[i]! += 1;
    counts[j]! += 1;
  }
  const rewards = accumulated.map((sum, idx) => (counts[idx]! > 0 ? sum / counts[idx]! : options.defaultScore));
  const baseScores = [...rewards];
  let bonuses = rewards.map(() => 0);
  if (options.reasoningBonus > 0 || options.answerBonus > 0 || options.groupReasoningLengthPenaltyCoeff > 0 || options.groupAnswerLengthPenaltyCoeff > 0) {
    bonuses = applyLengthBonuses(rewards, responseObjs, options);
  }
  const metrics: Aggregated["metrics"] = {};
  if (individual.length > 0) {
    const mean = individual.reduce((a, b) => a + b, 0) / individual.length;
    metrics.mean_individual_score = mean;
    metrics.std_individual_score = Math.sqrt(individual.reduce((a, b) => a + (b - mean) ** 2, 0) / individual.length);
  }
  if (results.length > 0) metrics.tiebreak_usage_rate = tiebreaks / results.length;
  return { rewards, metrics, baseScores, bonuses };
}
