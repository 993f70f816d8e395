// `npm run bench`: runs every bench/*.bench.ts in its own process, one after another, and prints their figures.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();

let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n== ${file}\n`);
  // One process per bench: no warm caches or leftover servers carry from one to the next.
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, file)], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
if (benches.length === 0) process.stdout.write("no benchmarks found\n");
process.exitCode = failed ? 1 : 0;
