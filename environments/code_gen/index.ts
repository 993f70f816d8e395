// Port of NeMo Gym's code_gen: the answer's last code block, run on LiveCodeBench-style unit tests in the session's sandbox.
import type { Sandbox } from "../../contracts/sandbox.js";
import type { Response } from "../../protocol/index.js";
import { allOutputText, defineEnvironment, type Environment, z } from "../sdk/index.js";
import { extractCode, hasReasoningFormatViolation } from "./extract.js";
import { GRADER_SOURCE } from "./harness.js";

/** NeMo Gym's configs/code_gen.yaml (unit_test_timeout_secs 10) and the server's reasoning_format_penalty default. */
export interface CodeGenConfig {
  unitTestTimeoutSecs: number;
  reasoningFormatPenalty: number;
}
export const DEFAULT_CONFIG: CodeGenConfig = { unitTestTimeoutSecs: 10, reasoningFormatPenalty: 0 };

/** LiveCodeBench's UnitTests. */
const UnitTests = z.object({ inputs: z.array(z.string()), outputs: z.array(z.string()), fn_name: z.string().nullish() });

/** The sandbox's own ceiling on one run's wall time and CPU (local/sandbox/limits.ts CEILINGS). */
const WALL_CEILING_MS = 300_000;
const CPU_CEILING_SECONDS = 120;

function reasoningText(response: Response): string {
  let text = "";
  for (const item of response.output) {
    if (item.type !== "reasoning") continue;
    for (const part of (item as { summary?: { text?: unknown }[] }).summary ?? []) if (typeof part.text === "string") text += part.text;
  }
  return text;
}

export function codeGenEnvironment(config: CodeGenConfig = DEFAULT_CONFIG): Environment {
  return defineEnvironment({
    name: "code_gen",
    description: "Competitive programming: the answer's last code block must pass every stdin/stdout unit test (run in a sandbox).",
    task: z.object({ verifier_metadata: z.record(z.string(), z.unknown()).nullish() }),
    sandbox: { runtime: "python", limits: { wallMs: WALL_CEILING_MS, cpuSeconds: CPU_CEILING_SECONDS, memoryMib: 4096, processes: 64 } },
    tools: {},
    verify: async (request, ctx) => {
      const modelOut = allOutputText(request.response);
      const difficulty = (request.verifier_metadata?.difficulty as string | undefined) ?? null;
      const empty = { extracted_model_output: null, extracted_model_code: null, result: null, metadata: null, unit_tests_time_taken: null };
      const base = { ...empty, reasoning_format_violation_rate: 0, difficulty };
      // A response with no usable text is the model's failure.
      if (!modelOut.trim()) return { reward: 0, ...base };
      const tests = UnitTests.parse(request.verifier_metadata?.unit_tests);
      const code = extractCode(modelOut);
      if (!code) return { reward: 0, ...base, extracted_model_output: modelOut };
      const sandbox = ctx.sandbox;
      if (!sandbox) throw new Error("code_gen: no sandbox (the environment declares one; the runtime gave none)");
      const started = Date.now();
      const timeout = config.unitTestTimeoutSecs;
      await sandbox.writeFile("grade.py", GRADER_SOURCE);
      await sandbox.writeFile("tests.json", JSON.stringify(tests));
      await sandbox.writeFile("solution.py", code);
      await sandbox.run({ command: ["bash", "-c", "rm -f result.json"] });
      // check_correctness's global timeout: (timeout + 1) per test + 5 s, within the sandbox's ceiling.
      const wallMs = Math.min(((timeout + 1) * tests.inputs.length + 5) * 1000, WALL_CEILING_MS);
      await sandbox.run({ command: ["python", "grade.py", "tests.json", "solution.py", "result.json", String(timeout)], limits: { wallMs } });
      const graded = await readResult(sandbox);
      // The global timeout (or a grader killed by a limit): every test failed, no metadata.
      const { result, metadata } = graded ?? { result: tests.inputs.map(() => -1), metadata: null };
      const unitTestsTimeTaken = (Date.now() - started) / 1000;
      const violation = hasReasoningFormatViolation(modelOut, reasoningText(request.response));
      const passed = result.every((r) => r === true);
      return {
        reward: violation ? config.reasoningFormatPenalty : passed ? 1 : 0,
        ...base,
        extracted_model_output: modelOut,
        extracted_model_code: code,
        result,
        metadata,
        unit_tests_time_taken: unitTestsTimeTaken,
        reasoning_format_violation_rate: violation ? 1 : 0,
      };
    },
  });
}

const Graded = z.object({ result: z.array(z.union([z.number(), z.boolean()])), metadata: z.record(z.string(), z.unknown()).nullable() });

/** The grader's result file; undefined when the grader never wrote it (killed by the global timeout or a limit). */
async function readResult(sandbox: Sandbox): Promise<z.output<typeof Graded> | undefined> {
  const read = await sandbox.run({ command: ["cat", "result.json"], limits: { outputBytes: 16 << 20 } });
  return read.exitCode === 0 ? Graded.parse(JSON.parse(read.stdout)) : undefined;
}

export default codeGenEnvironment();
