// Port of NeMo Gym's example_mcp_weather: one weather tool, meant to be called over MCP (every edgegym environment
// serves /mcp); the session remembers the calls, and verify checks the expected city was asked and its sentence answered.
import { defineEnvironment, z } from "../sdk/index.js";

const weatherSentence = (city: string) => `The weather in ${city} is sunny and 72 F.`;

/** NeMo Gym's _extract_assistant_text: the assistant messages' text parts, one per line, stripped. */
function assistantText(output: readonly { type: string; role?: unknown; content?: unknown }[]): string {
  const texts: string[] = [];
  for (const item of output) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    if (typeof item.content === "string") texts.push(item.content);
    else if (Array.isArray(item.content)) {
      for (const part of item.content as { text?: unknown }[]) if (typeof part?.text === "string") texts.push(part.text);
    }
  }
  return texts.join("\n").trim();
}

/** Python's str.casefold for the texts compared here (lowercase; ß as ss, as casefold maps it). */
const casefold = (text: string) => text.toLowerCase().replace(/ß/g, "ss");

const expectedCity = (metadata: Record<string, unknown> | null | undefined) => {
  const city = metadata?.expected_city;
  return typeof city === "string" ? city : "Paris";
};

export default defineEnvironment({
  name: "example_mcp_weather",
  description: "A weather tool meant for MCP clients: verify checks the expected city was asked and the sentence answered.",
  state: z.object({ expected_city: z.string().optional(), weather_calls: z.array(z.object({ city: z.string(), weather: z.string() })) }),
  // Task-specific ground truth travels in verifier_metadata (NeMo Gym's convention), e.g. {"expected_city": "Paris"}.
  task: z.object({ verifier_metadata: z.record(z.string(), z.unknown()).nullish() }),
  tools: {
    get_weather: {
      description: "Get a deterministic weather report for a city.",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }, { state }) => {
        const current = (await state.get()) ?? { weather_calls: [] };
        const weather = weatherSentence(city);
        await state.set({ ...current, weather_calls: [...current.weather_calls, { city, weather }] });
        return { weather };
      },
    },
  },
  seedSession: async (row, { state }) => {
    await state.set({ expected_city: expectedCity(row.verifier_metadata), weather_calls: [] });
    return {};
  },
  verify: async (request, { state }) => {
    const calls = (await state.get())?.weather_calls ?? [];
    const city = expectedCity(request.verifier_metadata);
    const expectedWeather = weatherSentence(city);
    // The sentence follows from the city, so a case-insensitive city match is enough (NeMo Gym's comment).
    const toolCallSeen = calls.some((call) => casefold(call.city) === casefold(city));
    const mentions = casefold(assistantText(request.response.output)).includes(casefold(expectedWeather));
    return {
      reward: toolCallSeen && mentions ? 1.0 : 0.0,
      expected_weather: expectedWeather,
      tool_call_seen: toolCallSeen,
      final_response_mentions_weather: mentions,
    };
  },
});
