// edgegym's sandbox protocol over HTTP (the local service speaks it; a remote provider is any service that does): zod shapes.
import { z } from "zod";

/**
 * Routes (JSON bodies unless said; errors are `{ error: { code, message, issues? } }` with a SandboxErrorCode):
 * - POST   /sandboxes                          SandboxSpec            → 201 { id }
 * - POST   /sandboxes/:id/run                  RunRequest             → 200 RunResult
 * - PUT    /sandboxes/:id/files?path=P         raw bytes              → 204
 * - GET    /sandboxes/:id/files?path=P&max=N                          → 200 raw bytes
 * - POST   /sandboxes/:id/kept                 { name, command }      → 200 { id }
 * - POST   /sandboxes/:id/kept/:kid/send       { input, limits? }     → 200 RunResult
 * - DELETE /sandboxes/:id                                             → 204 (also when already gone)
 * - GET    /health                                                    → 200 { ok: true }
 * 404 `sandbox_gone` for an unknown sandbox or kept process; 400/422 `sandbox_refused` for bad input, a path outside
 * the working directory or a limit above the service's ceiling; 500 `sandbox_create_failed`.
 */
export const SANDBOX_ROUTES = "edgegym-sandbox/1";

export const RunLimits = z.strictObject({
  cpuSeconds: z.number().positive().optional(),
  wallMs: z.number().int().positive().optional(),
  memoryMib: z.number().int().positive().optional(),
  processes: z.number().int().positive().optional(),
  outputBytes: z.number().int().positive().optional(),
  diskBytes: z.number().int().positive().optional(),
});

const RelativePath = z.string().min(1).max(4096);
const Env = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string());

export const SandboxSpec = z.strictObject({
  runtime: z.string().min(1),
  limits: RunLimits.optional(),
  ttlSeconds: z.number().int().positive().optional(),
  files: z.record(RelativePath, z.string()).optional(),
  env: Env.optional(),
});

export const RunRequest = z.strictObject({
  command: z
    .array(z.string())
    .min(1)
    .refine((argv) => !argv[0]?.includes("="), "the program's name may not contain '='"),
  stdin: z.string().optional(),
  cwd: RelativePath.optional(),
  env: Env.optional(),
  limits: RunLimits.optional(),
});

export const RunResult = z.object({
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().int().nullable(),
  stopped: z.enum(["wall_timeout", "cpu_timeout", "memory", "output", "killed"]).optional(),
  truncated: z.boolean(),
  wallMs: z.number(),
  cpuMs: z.number().optional(),
});

export const KeepRequest = z.strictObject({ name: z.string().min(1).max(64), command: z.array(z.string()).min(1) });
export const SendRequest = z.strictObject({ input: z.string(), limits: RunLimits.optional() });
export const Created = z.object({ id: z.string().min(1) });
export type Created = z.infer<typeof Created>;

export const SandboxErrorBody = z.object({
  error: z.object({
    code: z.enum(["sandbox_create_failed", "sandbox_unavailable", "sandbox_gone", "sandbox_refused"]),
    message: z.string(),
    issues: z.array(z.unknown()).optional(),
  }),
});
