// Deployment checks that run offline: SST's platform types over sst.config.ts and infra/, and a dry-run build of every Worker.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { GZIP_LIMIT_BYTES, checkBundles } from "../../infra/check-bundles.js";
import { discoverEnvironments } from "../../infra/environments.js";
import { PROJECT_ROOT } from "../../local/paths.js";

const run = promisify(execFile);
const OFFLINE = {
  SST_STAGE: "ci",
  SST_NO_BUN: "1",
  SST_SKIP_DEPENDENCY_CHECK: "1",
  SST_TELEMETRY_DISABLED: "1",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

describe("deployment, checked offline", () => {
  it("sst.config.ts and infra/ type-check against SST's platform types", { timeout: 600_000 }, async () => {
    // `sst install` fetches the providers from npm (the one registry reachable) into .sst/platform, once.
    if (!existsSync(path.join(PROJECT_ROOT, ".sst", "platform", "config.d.ts"))) {
      await run(path.join(PROJECT_ROOT, "node_modules", ".bin", "sst"), ["install"], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...OFFLINE },
        timeout: 540_000,
      });
    }
    const tsc = path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
    const result = await run(process.execPath, [tsc, "-p", "tsconfig.sst.json"], { cwd: PROJECT_ROOT }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("");
  });

  it("wrangler deploy --dry-run builds every Worker, each far under the size limit", { timeout: 600_000 }, async () => {
    const sizes = await checkBundles(PROJECT_ROOT);
    expect(sizes.map((s) => s.worker)).toEqual(
      expect.arrayContaining([
        "gateway",
        "agent",
        "model-proxy",
        "judge-proxy",
        "writer",
        ...discoverEnvironments(PROJECT_ROOT).map((e) => `resources-${e.replace(/_/g, "-")}`),
      ]),
    );
    for (const size of sizes) {
      expect(size.gzipBytes, `${size.worker}: ${(size.gzipBytes / 1024).toFixed(1)} KiB gzipped`).toBeLessThan(GZIP_LIMIT_BYTES);
      expect(size.gzipBytes, `${size.worker} built nothing`).toBeGreaterThan(1000);
    }
  });
});
