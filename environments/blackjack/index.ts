// Port of NeMo Gym's blackjack: a gymnasium environment where the model hits or stands with <action> tags; +1 win, 0 draw, -1 loss or bust.
import { EdgegymError } from "../../protocol/index.js";
import { defineGymnasiumEnvironment, extractText, z } from "../sdk/index.js";
import { decide } from "./action.js";
import { Game, Rank, deal, observation, play } from "./game.js";

export default defineGymnasiumEnvironment({
  name: "blackjack",
  description: "Blackjack. The model hits or stands with <action>hit</action> / <action>stand</action>. Reward +1 win, 0 draw, -1 loss or bust.",
  task: z.object({
    // edgegym's addition: the cards to deal, in order, for a reproducible game (NeMo Gym's deals are unseeded).
    deck: z.array(Rank).optional(),
  }),
  state: Game,
  async reset(row, ctx) {
    const game = deal(row.deck);
    await ctx.state.set(game);
    return { observation: observation(game.player, game.dealer[0]), info: {} };
  },
  async step(action, _row, ctx) {
    const game = await ctx.state.get();
    // NeMo Gym would fail on a hit here and play a stand against an empty table; a plain error says more.
    if (!game) throw new EdgegymError(409, "no_game", "this session has no blackjack game in play (it ended, or /reset was not called)");
    const outcome = play(game, decide(extractText(action)));
    if (!outcome.terminated) await ctx.state.set(game);
    return { ...outcome, truncated: false };
  },
  // NeMo Gym's blackjack_gymnasium_agent config.
  maxSteps: 5,
});
