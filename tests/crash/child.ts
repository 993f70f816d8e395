// The crash test's emulation process: `npm run dev` as a child, on the state folder it is given, with a slowish model so a
// job is still running when the test kills it. Prints one line `READY {json}` once the gateway answers.
import path from "node:path";
import { startLocal } from "../../local/emulation.js";

const dir = process.argv[2];
const token = process.env.EDGEGYM_CRASH_TOKEN;
if (!dir || !token) throw new Error("usage: EDGEGYM_CRASH_TOKEN=<token> child.ts <state dir>");

const local = await startLocal({
  port: 0,
  persist: path.join(dir, "state"),
  // The same token (and name) in both processes: a session opened before the crash is this caller's after it too.
  apiTokens: `crash:${token}:admin`,
  // As `edgegym dev` does: running jobs left by the killed process are resumed.
  resumeRunning: true,
  logs: { dir: path.join(dir, "logs") },
  environments: ["example_single_tool_call", "example_session_state_mgmt"],
  simulator: { latencyMs: { min: 5, max: 25 } },
  vars: { agent: { BATCH_CONCURRENCY: "16" } },
});
process.stdout.write(`READY ${JSON.stringify({ url: local.url, recovered: local.recovered.jobs, pid: process.pid })}\n`);
process.once("SIGTERM", async () => {
  await local.stop();
  process.exit(0);
});
