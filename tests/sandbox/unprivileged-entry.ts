// The local sandbox service as a test starts it under another (unprivileged) user: `tsx unprivileged-entry.ts <boxes dir>`;
// prints its URL on one line, stops on SIGTERM.
import { startSandboxService } from "../../local/sandbox/service.js";

const service = await startSandboxService({ dir: process.argv[2] });
process.stdout.write(`${service.url}\n`);
process.on("SIGTERM", () => {
  void service.stop().then(() => process.exit(0));
});
