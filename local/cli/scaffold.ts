// `edgegym init <name>`: a new environment that passes its own test at once — folder, tool, verify, data, test.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface Scaffolded {
  files: string[];
}

const indexSource = (name: string) => `// ${name}: a starting point. One tool, a verifier, task fields; edit them into your environment.
import { defineEnvironment, lastAssistantText, z } from "../sdk/index.js";

/** The facts the tool looks up; a real environment might call an API or keep state in the session. */
const CAPITALS: Record<string, string> = { france: "Paris", japan: "Tokyo", kenya: "Nairobi", peru: "Lima" };

export default defineEnvironment({
  name: "${name}",
  description: "Answer with the capital of a country; a lookup tool knows them.",
  // Fields of each dataset row that the verifier reads, checked on every request.
  task: z.object({ expected_answer: z.string() }),
  tools: {
    get_capital: {
      description: "Look up the capital city of a country.",
      parameters: z.object({ country: z.string().describe("The country, e.g. France") }),
      execute: ({ country }) => ({ country, capital: CAPITALS[country.trim().toLowerCase()] ?? null }),
    },
  },
  // The reward: 1 when the final answer names the expected capital.
  verify: (request) => {
    const answer = lastAssistantText(request.response);
    const correct = answer.toLowerCase().includes(request.expected_answer.toLowerCase());
    return { reward: correct ? 1 : 0, answer };
  },
});
`;

const rows = (): string =>
  `${[
    { country: "France", capital: "Paris" },
    { country: "Japan", capital: "Tokyo" },
  ]
    .map(({ country, capital }) =>
      JSON.stringify({
        responses_create_params: {
          input: [
            { role: "system", content: "Use the tools to answer." },
            { role: "user", content: `What is the capital of ${country}?` },
          ],
          tools: [
            {
              type: "function",
              name: "get_capital",
              description: "Look up the capital city of a country.",
              parameters: {
                type: "object",
                properties: { country: { type: "string", description: "The country, e.g. France" } },
                required: ["country"],
                additionalProperties: false,
              },
              strict: true,
            },
          ],
        },
        expected_answer: capital,
      }),
    )
    .join("\n")}\n`;

const testSource = (name: string) => `// ${name}: the tool, the verifier, and a rollout end to end, in workerd (the real runtime).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../emulation.js";
import { fixtureRowsOf } from "../helpers/environment.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "${name}";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const reply = (text: string) => ({ id: "r", object: "response", created_at: 0, model: "m", output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });

describe(NAME, () => {
  it("the tool answers", async () => {
    const answer = await postJson(\`\${local.url}/v1/environments/\${NAME}/get_capital\`, { country: "France" });
    expect(answer.body).toEqual({ country: "France", capital: "Paris" });
  });

  it("verify rewards the right answer and only it", async () => {
    const [row] = fixtureRowsOf(NAME);
    expect((await postJson(\`\${local.url}/v1/environments/\${NAME}/verify\`, { ...row, response: reply("It is Paris.") })).body.reward).toBe(1);
    expect((await postJson(\`\${local.url}/v1/environments/\${NAME}/verify\`, { ...row, response: reply("It is Lyon.") })).body.reward).toBe(0);
  });

  it("a rollout runs end to end: model (the simulator, scripted) → tool → answer → reward", async () => {
    local.simulator!.script({ tool_calls: [{ name: "get_capital", arguments: { country: "France" } }] }, { content: "The capital is Paris." });
    const [row] = fixtureRowsOf(NAME);
    const rollout = await postJson(\`\${local.url}/run?environment=\${NAME}\`, row);
    expect(rollout.status).toBe(200);
    expect(rollout.body.reward).toBe(1);
  });
});
`;

const readme = (name: string) => `# ${name}

Answer with a country's capital; the \`get_capital\` tool looks it up. Reward 1 when the final answer names
\`expected_answer\`. Task fields: \`expected_answer\`. Made with \`edgegym init\`: edit \`index.ts\`, \`data/example.jsonl\`
and \`tests/environments/${name}.test.ts\` into your environment, then \`npx edgegym env test ${name}\`.
`;

export function scaffoldEnvironment(root: string, name: string): Scaffolded {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`"${name}" is not a valid environment name: use lower_snake_case (a-z, 0-9, _), starting with a letter`);
  if (name === "sdk") throw new Error(`"sdk" is the environment SDK's folder`);
  const dir = path.join(root, "environments", name);
  if (existsSync(dir)) throw new Error(`environments/${name} already exists`);
  const files: [string, string][] = [
    [path.join(dir, "index.ts"), indexSource(name)],
    [path.join(dir, "data", "example.jsonl"), rows()],
    [path.join(dir, "README.md"), readme(name)],
    [path.join(root, "tests", "environments", `${name}.test.ts`), testSource(name)],
  ];
  for (const [file, _content] of files) {
    if (existsSync(file)) throw new Error(`${path.relative(root, file)} already exists`);
  }
  for (const [file, content] of files) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return { files: files.map(([file]) => path.relative(root, file)) };
}
