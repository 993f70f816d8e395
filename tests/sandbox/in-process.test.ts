// A sandboxed environment in process (the AWS agent's and the bucket worker's way of running environments): code_gen
// through inProcessEnvironment with the local sandbox service as its provider, each session's sandbox destroyed with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import codeGen from "../../environments/code_gen/index.js";
import { inProcessEnvironment } from "../../environments/sdk/index.js";
import type { DatasetRow, VerifyRequest } from "../../protocol/index.js";
import { type Harness, SETUP_TIMEOUT_MS, startHarness } from "./service-harness.js";

const OWNER = { rollout: "r1", token: "test" };
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
  await h?.stop();
});

const row = {
  responses_create_params: { input: [{ role: "user", content: "Read two integers and print their sum." }] },
  verifier_metadata: { unit_tests: { inputs: ["1 2\n", "40 2\n"], outputs: ["3\n", "42\n"] } },
} as unknown as DatasetRow;
const answer = (code: string) => ({
  id: "resp",
  created_at: 0,
  model: "m",
  object: "response",
  output: [
    {
      id: "msg",
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: `\`\`\`python\n${code}\n\`\`\``, annotations: [] }],
    },
  ],
});

describe("code_gen in process, sandboxed by the configured provider", () => {
  it("scores a right and a wrong program, each session's sandbox destroyed when its verify ends", async () => {
    const environment = inProcessEnvironment(codeGen, { sandbox: () => h.provider });
    for (const [code, reward] of [
      ["a, b = map(int, input().split())\nprint(a + b)", 1],
      ["print(3)", 0],
    ] as const) {
      const seeded = await environment.seed(row, OWNER);
      expect(seeded.status).toBe(200);
      const verified = await environment.verify(seeded.sessionId, { ...row, response: answer(code) } as unknown as VerifyRequest, OWNER);
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
      expect((verified.body as { reward: number }).reward).toBe(reward);
    }
    // Destroying is not awaited by verify: give it a moment, then the service holds no sandbox of these sessions.
    const live = async () => ((await (await fetch(`${h.service.url}/health`)).json()) as { sandboxes: number }).sandboxes;
    for (let i = 0; i < 50 && (await live()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await live()).toBe(0);
  }, 120_000);

  it("without a provider, a rollout fails naming what is missing", async () => {
    const environment = inProcessEnvironment(codeGen);
    const seeded = await environment.seed(row, OWNER);
    const verified = await environment.verify(seeded.sessionId, { ...row, response: answer("print(3)") } as unknown as VerifyRequest, OWNER).then(
      (outcome) => JSON.stringify(outcome),
      (error: unknown) => String(error),
    );
    expect(verified).toContain("code_gen declares a sandbox and this process was given no sandbox provider");
  });
});
