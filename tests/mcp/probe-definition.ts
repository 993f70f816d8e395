// The MCP tests' own environment (not bundled): a row narrows its session's MCP token (`allowed`), a tool fails on
// demand, and the verifier reports the tool names it saw, so name normalization shows in the verify answer.
import { defineEnvironment, z } from "../../environments/sdk/index.js";

/** The probe under a name (a second copy runs with a short SESSION_TTL_SECONDS, for expiry). */
export const probe = (name: string) =>
  defineEnvironment({
    name,
    description: "MCP test probe",
    task: z.object({ allowed: z.array(z.string()).optional() }),
    tools: {
      echo: {
        description: "Answers with its text.",
        parameters: z.object({ text: z.string() }),
        execute: ({ text }) => ({ echoed: text }),
      },
      shout: {
        description: "Answers with its text in capitals, as a string.",
        parameters: z.object({ text: z.string() }),
        execute: ({ text }) => text.toUpperCase(),
      },
      fail: {
        description: "Always throws.",
        parameters: z.object({}),
        execute: () => {
          throw new Error("the probe failed on purpose");
        },
      },
    },
    mcpAllowedTools: (row) => row.allowed,
    verify: (request) => ({
      reward: 1,
      seen_names: request.response.output.flatMap((item) => (item.type === "function_call" ? [item.name] : [])),
    }),
  });
