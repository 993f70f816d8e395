// Starts the local sandbox service for a test file and gives it a client (the SDK's HTTP provider), both real.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunRequest, RunResult, SandboxHandle, SandboxSpec } from "../../contracts/sandbox.js";
import { HttpSandboxProvider } from "../../environments/sdk/sandbox/http-provider.js";
import { type SandboxService, startSandboxService } from "../../local/sandbox/service.js";

/** The venv is made on first use on a fresh machine (pip from the local index): give that room. */
export const SETUP_TIMEOUT_MS = 600_000;

export interface Harness {
  service: SandboxService;
  provider: HttpSandboxProvider;
  /** Where this file's sandboxes' directories are on the host. */
  boxes: string;
  create(spec?: Partial<SandboxSpec>): Promise<SandboxHandle>;
  run(handle: SandboxHandle, request: RunRequest): Promise<RunResult>;
  /** Stops the service (destroying its sandboxes) and removes this file's directory. */
  stop(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const boxes = mkdtempSync(path.join(tmpdir(), "edgegym-sandbox-test-"));
  const service = await startSandboxService({ dir: boxes });
  const provider = new HttpSandboxProvider({ kind: "local", url: service.url });
  const signal = () => AbortSignal.timeout(120_000);
  return {
    service,
    provider,
    boxes,
    create: (spec = {}) => provider.create({ runtime: "python", ...spec }, signal()),
    run: (handle, request) => provider.run(handle, request, signal()),
    async stop() {
      await service.stop();
      rmSync(boxes, { recursive: true, force: true });
    },
  };
}

/** A Python one-liner program as a RunRequest. */
export function python(code: string, extra: Omit<RunRequest, "command"> = {}): RunRequest {
  return { command: ["python", "-c", code], ...extra };
}
