// Port of NeMo Gym's example_single_tool_call: a get_weather tool; every rollout scores 1.
import { defineEnvironment, z } from "../sdk/index.js";

export default defineEnvironment({
  name: "example_single_tool_call",
  description: "A single get_weather tool; the verifier gives every rollout a reward of 1.",
  tools: {
    get_weather: {
      description: "",
      parameters: z.object({ city: z.string().describe("") }),
      execute: ({ city }) => ({ city, weather_description: `The weather in ${city} is cold.` }),
    },
  },
  verify: () => ({ reward: 1.0 }),
});
