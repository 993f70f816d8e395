// A test environment that declares a sandbox: a Python tool and a verify that run code in ctx.sandbox, served in workerd.
import { ENTRYPOINTS, SESSION_CLASS } from "../../contracts/names.js";
import { defineEnvironment, z } from "../../environments/sdk/index.js";
import * as sdk from "../../environments/sdk/worker.js";

const environment = defineEnvironment({
  name: "sandbox_probe",
  description: "Runs Python the caller sends in the session's sandbox; verify checks a file the tool wrote.",
  task: z.object({ expected: z.string().default("") }),
  sandbox: { runtime: "python", limits: { wallMs: 10_000, cpuSeconds: 5 } },
  tools: {
    run_python: {
      description: "Run a Python program in the session's sandbox.",
      parameters: z.object({ code: z.string() }),
      execute: async ({ code }, ctx) => {
        const result = await ctx.sandbox!.run({ command: ["python", "-c", code] });
        return { stdout: result.stdout, stderr: result.stderr, exit_code: result.exitCode, stopped: result.stopped ?? null };
      },
    },
  },
  verify: async (request, ctx) => {
    const result = await ctx.sandbox!.run({
      command: ["python", "-c", "print(open('answer.txt').read() if __import__('os').path.exists('answer.txt') else '')"],
    });
    return { reward: result.stdout.trim() === request.expected ? 1 : 0, seen: result.stdout.trim() };
  },
});

export default sdk.environmentHandler(environment);
export class EnvironmentEntrypoint extends sdk.EnvironmentEntrypoint {
  protected readonly environment = environment;
}
export class EnvironmentSession extends sdk.EnvironmentSession {
  protected readonly environment = environment;
}
if (SESSION_CLASS !== "EnvironmentSession" || ENTRYPOINTS.environment !== "EnvironmentEntrypoint") throw new Error("sandbox_probe: export names changed");
