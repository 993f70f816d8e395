// Blackjack as NeMo Gym plays it: an infinite deck (each card a uniform rank), hit or stand, the dealer draws to 17.
import { z } from "zod";

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] as const;
export const Rank = z.enum(RANKS);
export type Rank = z.infer<typeof Rank>;

/** A session's game: the hands, and what is left of a deck the row fixed (empty: draws are random). */
export const Game = z.object({ player: z.array(Rank), dealer: z.array(Rank), deck: z.array(Rank) });
export type Game = z.infer<typeof Game>;

/** Aces count 11, then 1 each while the hand is over 21. */
export function handValue(hand: readonly Rank[]): number {
  let total = 0;
  let aces = 0;
  for (const rank of hand) {
    if (rank === "A") {
      total += 11;
      aces += 1;
    } else total += rank === "J" || rank === "Q" || rank === "K" ? 10 : Number(rank);
  }
  while (total > 21 && aces > 0) {
    total -= 10;
    aces -= 1;
  }
  return total;
}

export function formatHand(hand: readonly Rank[]): string {
  return `[${hand.join(", ")}]`;
}

export function observation(player: readonly Rank[], dealerUpCard: Rank | undefined): string {
  return (
    `Your hand: ${formatHand(player)} = ${handValue(player)}\n` +
    `Dealer shows: ${dealerUpCard}\n` +
    `Respond with <action>hit</action> or <action>stand</action>.`
  );
}

/** A uniform rank from the platform's CSPRNG (NeMo Gym's unseeded random.Random().choice), without modulo bias. */
export function randomRank(): Rank {
  const limit = Math.floor(0x1_0000_0000 / RANKS.length) * RANKS.length;
  const word = new Uint32Array(1);
  do {
    crypto.getRandomValues(word);
  } while (word[0]! >= limit);
  return RANKS[word[0]! % RANKS.length]!;
}

/** The next card: the fixed deck's next one while it lasts, else a random one. */
export function draw(game: Game): Rank {
  return game.deck.shift() ?? randomRank();
}

/** Deals in NeMo Gym's order: player, player, dealer (shown), dealer (hole). */
export function deal(deck: readonly Rank[] = []): Game {
  const game: Game = { player: [], dealer: [], deck: [...deck] };
  game.player.push(draw(game), draw(game));
  game.dealer.push(draw(game), draw(game));
  return game;
}

export type Decision = "hit" | "stand";

export interface Outcome {
  observation: string | null;
  reward: number;
  terminated: boolean;
  info: Record<string, unknown>;
}

/** One decision on a game (mutated in place): a hit that busts loses, a stand plays the dealer out and compares. */
export function play(game: Game, decision: Decision): Outcome {
  const { player, dealer } = game;
  if (decision === "hit") {
    player.push(draw(game));
    const value = handValue(player);
    if (value > 21) return { observation: null, reward: -1, terminated: true, info: { result: "bust", player: formatHand(player), value } };
    return { observation: observation(player, dealer[0]), reward: 0, terminated: false, info: {} };
  }
  while (handValue(dealer) < 17) dealer.push(draw(game));
  const playerValue = handValue(player);
  const dealerValue = handValue(dealer);
  const [reward, result] = dealerValue > 21 || playerValue > dealerValue ? [1, "win"] : playerValue === dealerValue ? [0, "draw"] : [-1, "loss"];
  return {
    observation: null,
    reward,
    terminated: true,
    info: { result, player: formatHand(player), player_value: playerValue, dealer: formatHand(dealer), dealer_value: dealerValue },
  };
}
