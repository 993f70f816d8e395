// `npm run chaos`: the chaos suite at full size, 10,000 rollouts (1,000 rows × 10) under faults everywhere; prints the
// figures and exits 1 if any invariant failed. (`npm test` runs the same scenario at 500 rollouts: tests/chaos/chaos.test.ts.)
import { ENVIRONMENT_FAULTS, MODEL_FAULTS, PLUMBING_FAULTS, runChaos, startChaosLocal } from "./scenario.js";

const rows = Number(process.env.EDGEGYM_CHAOS_ROWS ?? 1000);
const repeats = Number(process.env.EDGEGYM_CHAOS_REPEATS ?? 10);

const local = await startChaosLocal();
try {
  process.stderr.write(`chaos: ${rows} rows × ${repeats} repeats = ${rows * repeats} rollouts\n`);
  const report = await runChaos(local, rows, repeats, 3_600_000);
  process.stdout.write(
    `${JSON.stringify({ ...report, faults: { model: MODEL_FAULTS, environment: ENVIRONMENT_FAULTS, plumbing: PLUMBING_FAULTS } }, null, 2)}\n`,
  );
  if (report.problems.length > 0) {
    process.stderr.write(`chaos: FAILED\n${report.problems.join("\n")}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(
      `chaos: passed: ${report.rollouts} records (${report.done} scored, ${report.failed} failures), none twice, none missing, in ${report.seconds.toFixed(1)} s\n`,
    );
  }
} finally {
  await local.stop();
}
