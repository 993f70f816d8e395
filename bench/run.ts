// `npm run bench`: every scenario of the issue in its own process, one after another (progress printed as they go), then
// one table, bench/results.json (machine, commit, every figure) and the chart (bench/results.svg, and .png when Chromium
// is there to render it).
//
//   npm run bench                       the full run (about 15-25 minutes on a quiet 2-core machine)
//   npm run bench -- --quick            a short one (a few minutes): smaller sizes, same scenarios
//   npm run bench -- --only proxy,burst some scenarios only
//   npm run bench -- --nemo-gym <dir>   the peer scenario runs NeMo Gym (a checkout with its .venv) beside edgegym
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { BENCH_ROOT } from "./cpu/processes.js";
import { renderChart } from "./lib/figures-chart.js";
import { type Figure, meets, type ScenarioReport } from "./lib/report.js";

const { values } = parseArgs({
  options: {
    // `npm run bench --quick` (without `--`) reaches us as npm_config_quick.
    quick: { type: "boolean", default: process.env.BENCH_QUICK === "1" || process.env.npm_config_quick === "true" },
    only: { type: "string" },
    // A NeMo Gym installation for the peer scenario (or BENCH_NEMO_GYM_DIR); without one that scenario skips.
    "nemo-gym": { type: "string" },
    out: { type: "string", default: path.join(BENCH_ROOT, "bench", "results.json") },
  },
});
const QUICK = values.quick;

/** The scenarios in the order they run, each with the longest it may take (minutes, full run) before it is stopped. */
const SCENARIOS: { name: string; minutes: number }[] = [
  { name: "efficiency", minutes: 15 },
  { name: "proxy", minutes: 5 },
  { name: "burst", minutes: 12 },
  { name: "scale", minutes: 25 },
  { name: "inflight", minutes: 18 },
  { name: "overload", minutes: 18 },
  { name: "schedulers", minutes: 30 },
  { name: "remote", minutes: 10 },
  { name: "sandbox", minutes: 10 },
  { name: "cost", minutes: 8 },
  { name: "peer", minutes: 40 },
];
const chosen = SCENARIOS.filter((s) => !values.only || values.only.split(",").includes(s.name));
if (chosen.length === 0) throw new Error(`--only: no scenario among ${values.only} (known: ${SCENARIOS.map((s) => s.name).join(", ")})`);

function git(args: string[]): string {
  try {
    return execFileSync("git", ["-C", BENCH_ROOT, ...args], { encoding: "utf8" }).trim();
  } catch {
    // Not a git checkout (a tarball): the report says so instead of failing.
    return "";
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    load_average: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

async function runScenario(name: string, minutes: number): Promise<ScenarioReport> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "edgegym-bench-")), `${name}.json`);
  const started = performance.now();
  process.stdout.write(`\n== ${name}${QUICK ? " (quick)" : ""}\n`);
  const args = [...(QUICK ? ["--quick"] : []), ...(name === "peer" && values["nemo-gym"] ? ["--nemo-gym", values["nemo-gym"]] : [])];
  const child = spawn(process.execPath, ["--import", "tsx", path.join(BENCH_ROOT, "bench", "scenarios", `${name}.ts`), ...args], {
    cwd: BENCH_ROOT,
    stdio: "inherit",
    env: { ...process.env, BENCH_REPORT: file, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  const limitMs = (QUICK ? minutes / 2 : minutes) * 60_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGTERM");
  }, limitMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  if (code === 0 && existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as ScenarioReport;
  const why = timedOut ? `stopped after ${limitMs / 60_000} minutes` : `exited with code ${code}`;
  process.stdout.write(`  ${name} ${why}: its figures are missing from this run\n`);
  return {
    scenario: name,
    title: name,
    seconds: (performance.now() - started) / 1000,
    figures: [{ id: `${name}.ran`, label: `the scenario ran (${why})`, value: null, unit: "" }],
  };
}

function show(figure: Figure): string {
  if (figure.value === null) return "n/a";
  const v = figure.value;
  const text = Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
  return `${text}${figure.unit && !["", "×"].includes(figure.unit) ? ` ${figure.unit}` : figure.unit}`;
}

function table(reports: ScenarioReport[]): string {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(`\n${report.title}  (${report.seconds.toFixed(0)} s)`);
    for (const figure of report.figures) {
      const verdict = meets(figure);
      const mark = verdict === undefined ? " " : verdict ? "✓" : "✗";
      const goal = figure.target ? `${figure.target.op} ${figure.target.value}` : "";
      lines.push(`  ${mark} ${figure.label.padEnd(64)} ${show(figure).padStart(14)}  ${goal.padEnd(9)} ${figure.note ?? ""}`.trimEnd());
    }
  }
  return `${lines.join("\n")}\n`;
}

const startedAt = new Date();
const before = machine();
const reports: ScenarioReport[] = [];
for (const { name, minutes } of chosen) reports.push(await runScenario(name, minutes));

const commit = git(["rev-parse", "HEAD"]);
const dirty = git(["status", "--porcelain", "--untracked-files=no"]) !== "";
const figures = reports.flatMap((r) => r.figures.map((f) => ({ ...f, scenario: r.scenario, meets: meets(f) ?? null })));
const results = {
  date: startedAt.toISOString(),
  commit: commit ? `${commit}${dirty ? "+changes" : ""}` : "not a git checkout",
  quick: QUICK,
  machine: { ...before, load_average_after: machine().load_average },
  targets: { met: figures.filter((f) => f.meets === true).length, missed: figures.filter((f) => f.meets === false).length },
  figures,
  scenarios: Object.fromEntries(reports.map((r) => [r.scenario, r])),
};
writeFileSync(values.out, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(table(reports));
// A scenario's own table (the cost per million rollouts), as the README shows it.
for (const report of reports) if (typeof report.details?.table === "string") process.stdout.write(`\n${report.title}\n\n${report.details.table}`);
process.stdout.write(
  `\n${results.targets.met} targets met, ${results.targets.missed} missed; machine: ${before.cores} × ${before.cpu}, ${before.memory_gib} GiB, load ${before.load_average.join(" ")} at start\n`,
);
process.stdout.write(`figures: ${path.relative(process.cwd(), values.out)}\n`);
const chart = await renderChart(results, path.dirname(values.out));
for (const file of chart) process.stdout.write(`chart: ${path.relative(process.cwd(), file)}\n`);
