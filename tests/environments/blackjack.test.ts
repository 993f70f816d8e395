// blackjack: NeMo Gym's recorded games replayed through /reset and /step in workerd, NeMo Gym's own tests ported, Python's regex edges.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { decide } from "../../environments/blackjack/action.js";
import { RANKS, deal, handValue, play, randomRank, type Game, type Rank } from "../../environments/blackjack/game.js";
import { fixtureRollouts, fixtureRows } from "../helpers/fixtures.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";

const NAME = "blackjack";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const base = () => `${local.url}/v1/environments/${NAME}`;
const row = fixtureRows(NAME)[0]!;
const message = (text: string) => ({
  id: "msg",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ annotations: [], text, type: "output_text" }],
});
const response = (...output: unknown[]) => ({ id: "r", created_at: 0, model: "m", object: "response", output });
const cards = (text: string) => text.slice(1, -1).split(", ") as Rank[];

/**
 * The cards a recorded game was dealt, in dealing order. NeMo Gym deals from an unseeded random.Random() (seeded
 * from os.urandom), so the deals cannot be regenerated; the recording shows them: the first hand and the dealer's
 * up card in the reset observation, each hit in the hands that follow, the dealer's whole hand in a stand's info.
 * The hole card of a game the player busts is never shown, and cannot matter: any card stands in for it.
 */
function recordedDeck(record: Json): Rank[] {
  const first = record.responses_create_params.input.at(-1).content as string;
  const [p0, p1] = cards(/Your hand: (\[.*?\])/.exec(first)![1]!);
  const up = /Dealer shows: (\S+)/.exec(first)![1] as Rank;
  const dealer = record.info.dealer ? cards(record.info.dealer) : [up, "2" as Rank];
  expect(dealer[0]).toBe(up);
  return [p0!, p1!, ...dealer.slice(0, 2), ...cards(record.info.player).slice(2), ...dealer.slice(2)];
}

/** The session an answer opened, as the header later calls carry. */
const sessionOf = (answer: { headers: Headers }) => ({ "x-session-id": answer.headers.get("x-session-id")! });

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "recorded rollout %i: the same cards give the same observations, rewards and info",
    async (_i, record: Json) => {
      const reset = await postJson(`${base()}/reset`, { ...row, deck: recordedDeck(record) });
      expect(reset.status).toBe(200);
      const headers = sessionOf(reset);
      expect(reset.body).toEqual({ observation: record.responses_create_params.input.at(-1).content, info: {} });

      const output = record.response.output as Json[];
      let total = 0;
      let last: Json;
      for (const [at, item] of output.entries()) {
        if (item.role !== "assistant") continue;
        last = (await postJson(`${base()}/step`, { ...row, response: response(item) }, headers)).body;
        total += last.reward;
        const next = output[at + 1];
        expect(last.observation).toBe(next ? next.content : null);
      }
      expect(total).toBe(record.reward);
      expect(last).toMatchObject({ terminated: record.terminated, truncated: record.truncated, info: record.info });
    },
  );
});

describe("the Worker (workerd)", () => {
  it("GET /tools: a gymnasium environment, NeMo Gym's max_steps 5, no tools", async () => {
    const tools = (await (await gatewayFetch(`${base()}/tools`)).json()) as Json;
    expect(tools).toMatchObject({ environment: NAME, kind: "gymnasium", stateful: true, max_steps: 5, tools: [] });
  });

  it("reset deals a fresh random game per session, in NeMo Gym's words", async () => {
    const reset = await postJson(`${base()}/reset`, row);
    expect(reset.body.observation).toMatch(
      /^Your hand: \[(10|[2-9JQKA]), (10|[2-9JQKA])\] = \d+\nDealer shows: (10|[2-9JQKA])\nRespond with <action>hit<\/action> or <action>stand<\/action>\.$/,
    );
    expect(reset.headers.get("x-session-id")).toBeTruthy();
  });

  it("sessions are isolated: each plays its own deck", async () => {
    const a = sessionOf(await postJson(`${base()}/reset`, { ...row, deck: ["10", "9", "10", "8"] }));
    const b = sessionOf(await postJson(`${base()}/reset`, { ...row, deck: ["2", "2", "6", "K", "3"] }));
    const hit = await postJson(`${base()}/step`, { ...row, response: response(message("<action>hit</action>")) }, b);
    expect(hit.body.observation).toContain("Your hand: [2, 2, 3] = 7\nDealer shows: 6");
    const stand = await postJson(`${base()}/step`, { ...row, response: response(message("<action>stand</action>")) }, a);
    expect(stand.body).toMatchObject({ reward: 1, terminated: true, info: { result: "win", player_value: 19, dealer_value: 18 } });
  });

  it("the episode's state is gone after it ends (NeMo Gym's close_session); a step then is a clear 409", async () => {
    const headers = sessionOf(await postJson(`${base()}/reset`, { ...row, deck: ["10", "9", "10", "8"] }));
    const action = { ...row, response: response(message("<action>stand</action>")) };
    expect((await postJson(`${base()}/step`, action, headers)).body.terminated).toBe(true);
    const again = await postJson(`${base()}/step`, action, headers);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("no_game");
    // A step without a session runs in a new one, which has no game either.
    expect((await postJson(`${base()}/step`, action)).status).toBe(409);
  });

  it("reads the text of every message part, joined as NeMo Gym's extract_text joins it", async () => {
    const headers = sessionOf(await postJson(`${base()}/reset`, { ...row, deck: ["2", "3", "K", "7", "4"] }));
    const split = response({
      ...message("I will <action>hi"),
      content: [
        { type: "output_text", text: "I will <action>hi" },
        { type: "output_text", text: "t</action>" },
      ],
    });
    expect((await postJson(`${base()}/step`, { ...row, response: split }, headers)).body.observation).toContain("[2, 3, 4] = 9");
  });

  it("a deck that is not ranks is a 400 naming it", async () => {
    const bad = await postJson(`${base()}/reset`, { ...row, deck: ["1"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toEqual(["deck", 0]);
  });
});

describe("NeMo Gym's blackjack tests, ported", () => {
  it.each([
    [["5", "7"], 12],
    [["K", "Q"], 20],
    [["A", "K", "5"], 16],
    [["A", "9"], 20],
    [["A", "A"], 12],
  ] as [Rank[], number][])("hand value of %j is %i", (hand, value) => {
    expect(handValue(hand)).toBe(value);
  });

  it("reset populates state: two cards each", () => {
    const game = deal();
    expect(game.player).toHaveLength(2);
    expect(game.dealer).toHaveLength(2);
  });

  it("stand finishes the game", () => {
    const outcome = play({ player: ["K", "9"], dealer: ["10"], deck: [] }, "stand");
    expect(outcome.terminated).toBe(true);
    expect([-1, 0, 1]).toContain(outcome.reward);
    expect(["win", "draw", "loss"]).toContain(outcome.info.result);
    expect(play({ player: ["K", "9"], dealer: ["10"], deck: ["7"] }, "stand")).toMatchObject({
      reward: 1,
      info: { result: "win", dealer: "[10, 7]", dealer_value: 17 },
    });
    expect(play({ player: ["K", "7"], dealer: ["10"], deck: ["7"] }, "stand")).toMatchObject({ reward: 0, info: { result: "draw" } });
    expect(play({ player: ["K", "6"], dealer: ["10"], deck: ["7"] }, "stand")).toMatchObject({ reward: -1, info: { result: "loss" } });
  });

  it("a hit that busts ends the game at -1", () => {
    expect(play({ player: ["K", "K"], dealer: ["5"], deck: ["5"] }, "hit")).toEqual({
      observation: null,
      reward: -1,
      terminated: true,
      info: { result: "bust", player: "[K, K, 5]", value: 25 },
    });
    expect(play({ player: ["K", "K"], dealer: ["5"], deck: ["A"] }, "hit").terminated).toBe(false);
  });

  it("a safe hit continues with a new observation", () => {
    const outcome = play({ player: ["5", "3"], dealer: ["10"], deck: [] }, "hit");
    expect(outcome.terminated).toBe(false);
    expect(outcome.reward).toBe(0);
    expect(outcome.observation).toContain("Your hand");
  });

  const decideOn = (text: string) => {
    const game: Game = { player: ["2", "2"], dealer: ["10"], deck: [] };
    return play(game, decide(text)).terminated ? "stand" : "hit";
  };
  it.each([
    ["<action>hit</action>", "hit"],
    ["<action>stand</action>", "stand"],
    ["<action>  hit  </action>", "hit"],
    ["<action>HIT</action>", "hit"],
    ["i don't know, maybe hit?", "stand"],
    ["<action>fold</action>", "stand"],
  ])("the action parser: %j → %s", (text, expected) => {
    expect(decideOn(text)).toBe(expected);
  });
});

describe("Python's re on the action tag (checked against CPython 3.11)", () => {
  it.each([
    ["<actıon>hit</actıon>", "hit"], // IGNORECASE: "i" matches U+0131 in the tag
    ["<ACTİON>Hit</ACTİON>", "hit"], // and U+0130
    ["<action>hıt</action>", "stand"], // matches, but "hıt".lower() is not "hit"
    ["<action>\u001chit\u0085</action>", "hit"], // Python's \s has \x1c-\x1f and \x85
    ["<action>\ufeffhit</action>", "stand"], // and not \ufeff
    ["<action>stand</action> then <action>hit</action>", "stand"], // the first tag decides
  ])("%j → %s", (text, expected) => {
    expect(decide(text)).toBe(expected);
  });
});

describe("the deal", () => {
  it("draws from the row's deck first, then at random", () => {
    const game = deal(["A", "K", "2", "3"]);
    expect(game).toEqual({ player: ["A", "K"], dealer: ["2", "3"], deck: [] });
    play(game, "hit");
    expect(RANKS).toContain(game.player[2]);
  });

  it("random cards are uniform over the 13 ranks", () => {
    const counts = new Map<Rank, number>();
    for (let i = 0; i < 13_000; i++) {
      const rank = randomRank();
      counts.set(rank, (counts.get(rank) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([...RANKS].sort());
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
  });
});
