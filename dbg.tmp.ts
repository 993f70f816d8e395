import { startLocal } from "./local/emulation.ts";
const local = await startLocal({ port: 0, persist: false, environments: ["example_single_tool_call"], vars: { gateway: { RATE_LIMIT_PER_SECOND: "0" } } });
try {
  for (const path of ["/health", "/v1/jobs/job_x", "/health", "/v1/jobs/job_x"]) {
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 2000 }, async () => {
        const r = await fetch(`${local.url}${path}`, { headers: { authorization: `Bearer ${local.token}` } });
        await r.arrayBuffer();
      }),
    );
    console.log(path, (performance.now() - t0).toFixed(0), "ms");
  }
} finally {
  await local.stop();
}
