// Port of NeMo Gym's math_with_code: an execute_python tool over a kernel kept in the session's sandbox, a boxed answer checked.
import type { Sandbox } from "../../contracts/sandbox.js";
import type { Response } from "../../protocol/index.js";
import { defineEnvironment, type Environment, z } from "../sdk/index.js";
import { KERNEL_SOURCE } from "./kernel.js";
import { answersMatch, extractBoxedAnswer } from "./verify.js";

/** NeMo Gym's PythonExecutorResourcesServerConfig (configs/math_with_code.yaml). */
export interface MathWithCodeConfig {
  maxExecutionTime: number;
}
export const DEFAULT_CONFIG: MathWithCodeConfig = { maxExecutionTime: 10 };

const KERNEL_FILE = "math_kernel.py";
/** Past the kernel's own alarm, the sandbox kills a kernel stuck where the alarm cannot reach (C code): this much later. */
const BACKSTOP_SECONDS = 5;

interface ExecutePythonResponse {
  success: boolean;
  stdout: string;
  stderr: string;
  error_message: string | null;
  result: string | null;
}

const failed = (message: string): ExecutePythonResponse => ({ success: false, stdout: "", stderr: "", error_message: message, result: null });

/** execute_python: the code run in the session's kernel, whose variables survive from one call to the next. */
async function executePython(sandbox: Sandbox, code: string, config: MathWithCodeConfig): Promise<ExecutePythonResponse> {
  await sandbox.writeFile(KERNEL_FILE, KERNEL_SOURCE);
  const kernel = await sandbox.keep("python", ["python", KERNEL_FILE, String(config.maxExecutionTime)]);
  const ran = await kernel.send(code, { wallMs: (config.maxExecutionTime + BACKSTOP_SECONDS) * 1000 });
  if (ran.stopped) return failed(`code stopped by the sandbox (${ran.stopped})`);
  try {
    return JSON.parse(ran.stdout) as ExecutePythonResponse;
  } catch {
    return failed(`the kernel gave no answer${ran.stderr ? `: ${ran.stderr.slice(-500)}` : ""}`);
  }
}

/** The last boxed answer of the assistant's messages (latest first), else of a tool output's stdout. */
export function extractAnswer(response: Response): string | null {
  const items = [...response.output].reverse();
  for (const item of items) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    let text = "";
    if (typeof item.content === "string") text = item.content;
    else for (const part of item.content) if (part.type === "output_text") text += part.text ?? "";
    const answer = extractBoxedAnswer(text);
    if (answer !== null) return answer;
  }
  for (const item of items) {
    if (item.type !== "function_call_output" || typeof item.output !== "string") continue;
    const answer = extractBoxedAnswer(toolStdout(item.output));
    if (answer !== null) return answer;
  }
  return null;
}

/** json.loads(output).get("stdout", ""), or the output itself when it is no JSON object. */
function toolStdout(output: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch {
    return output;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return output;
  const stdout = (parsed as Record<string, unknown>).stdout ?? "";
  return typeof stdout === "string" ? stdout : "";
}

export function mathWithCodeEnvironment(config: MathWithCodeConfig = DEFAULT_CONFIG): Environment {
  return defineEnvironment({
    name: "math_with_code",
    description: "Math with a stateful Python tool (numpy, scipy, pandas in a sandbox): the last \\boxed{} answer must match expected_result.",
    task: z.object({ expected_result: z.string(), expected_code_contains: z.string().default("") }),
    sandbox: { runtime: "python", limits: { wallMs: 120_000, cpuSeconds: 60, memoryMib: 2048, processes: 64 } },
    tools: {
      execute_python: {
        description: "Execute Python code to perform calculations. You have access to numpy, scipy, pandas and basic math operations.",
        parameters: z.object({ code: z.string() }),
        execute: ({ code }, ctx) => executePython(ctx.sandbox!, code, config),
      },
      end_session: {
        description: "End the session: its Python kernel and its variables are discarded.",
        parameters: z.object({}),
        execute: async (_args, ctx) => {
          await ctx.sandbox?.destroy();
          return { success: true, stdout: "", stderr: "", error_message: null, result: null };
        },
      },
    },
    verify: async (request, ctx) => {
      try {
        const actual = extractAnswer(request.response);
        const accuracy = answersMatch(actual, request.expected_result);
        return { reward: accuracy ? 1 : 0, extracted_answer: actual, accuracy };
      } finally {
        // NeMo Gym ends the session's kernel after verifying.
        await ctx.sandbox?.destroy();
      }
    },
  });
}

export default mathWithCodeEnvironment();
