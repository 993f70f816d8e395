// The README's "On this machine" AWS recipe, run as a user copies it: `npx edgegym aws up`, then the second shell's lines
// in one shell (the exports it printed, the worker in the background with `&`, collect, jobs list, `kill %1`).
import { expect } from "vitest";
import { exits, lines } from "./checks.js";
import type { Background } from "./clone.js";
import type { DocContext } from "./context.js";
import type { Entry } from "./entry.js";

const UP = "npx edgegym aws up";
/** The README's export lines: "the export lines it printed, e.g." (its model port is a placeholder). */
const EXPORTS = [
  "export AWS_ENDPOINT_URL=http://127.0.0.1:4566",
  "export EDGEGYM_QUEUE_URL=http://sqs.us-east-1.localhost:4567/000000000000/edgegym-rollouts",
  "export EDGEGYM_BUCKET=s3://edgegym-jobs",
  "export EDGEGYM_MODEL_URL=http://127.0.0.1:<port>/v1 EDGEGYM_MODEL=edgegym-sim",
];
const WORKER = "npx edgegym worker --queue-url $EDGEGYM_QUEUE_URL --bucket $EDGEGYM_BUCKET";
const COLLECT =
  "npx edgegym collect --queue-url $EDGEGYM_QUEUE_URL --bucket $EDGEGYM_BUCKET -e example_single_tool_call -i environments/example_single_tool_call/data/example.jsonl -o out/aws.jsonl -n 2";
const LIST = "npx edgegym jobs list --bucket $EDGEGYM_BUCKET";
const KILL = "kill %1";

/** `NAME=value` pairs of export lines. */
function exported(text: string): Record<string, string> {
  const pairs = [...text.matchAll(/^ *export (.+)$/gm)].flatMap((m) => (m[1] ?? "").trim().split(/\s+/));
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

/** `aws up` as written; on a machine where port 4566 is taken, with `--port 0` (the README's `--port`: any free pair). */
async function startUp(ctx: DocContext): Promise<{ up: Background; asWritten: boolean }> {
  const up = ctx.background(UP);
  try {
    await up.waitFor(/Ctrl-C/, 120_000);
    return { up, asWritten: true };
  } catch (error) {
    if (!/port 4566 is taken: --port <n> picks another pair/.test(up.output())) throw error;
    const other = ctx.background(`${UP} --port 0`);
    await other.waitFor(/Ctrl-C/, 120_000);
    return { up: other, asWritten: false };
  }
}

let running: Background | undefined;

export const AWS_LOCAL: Entry[] = [
  {
    doc: UP,
    background: true, // runs until Ctrl-C: started here, stopped after the second shell's lines (below)
    check: async (_r, ctx) => {
      const { up, asWritten } = await startUp(ctx);
      running = up;
      const banner = up.output();
      expect(banner).toMatch(/dead-letter queue: \S+\/edgegym-rollouts-dlq \(after 5 receives\)/);
      const printed = exported(banner);
      expect(Object.keys(printed)).toEqual(["AWS_ENDPOINT_URL", "EDGEGYM_QUEUE_URL", "EDGEGYM_BUCKET", "EDGEGYM_MODEL_URL", "EDGEGYM_MODEL"]);
      // The README's values are what it prints (its ports if 4566 was free; else the ports it took, in their places).
      const endpointPort = new URL(printed.AWS_ENDPOINT_URL ?? "").port;
      const fauxqsPort = new URL(printed.EDGEGYM_QUEUE_URL ?? "").port;
      if (asWritten) expect([endpointPort, fauxqsPort]).toEqual(["4566", "4567"]);
      const documented = exported(EXPORTS.join("\n"));
      const modelPort = new URL(printed.EDGEGYM_MODEL_URL ?? "").port;
      for (const [name, value] of Object.entries(documented)) {
        const expected = value.replace(":4566", `:${endpointPort}`).replace(":4567", `:${fauxqsPort}`).replace("<port>", modelPort);
        expect(printed[name], name).toBe(expected);
      }
      expect(modelPort).toMatch(/^\d+$/);
      // And the commands it prints for the second shell are the README's.
      expect([...banner.matchAll(/^ {2}(npx edgegym .+)$/gm)].map((m) => m[1])).toEqual([WORKER, COLLECT, LIST]);
      ctx.vars.set("aws-exports", [...banner.matchAll(/^ {2}(export .+)$/gm)].map((m) => m[1]).join("\n"));
    },
  },
  {
    doc: WORKER,
    // The second shell as pasted: the export lines aws up printed, the worker with `&`, collect, jobs list, kill %1.
    // `set -m`: an interactive shell's job control, so `&` makes a job of its own process group and `kill %1` signals all
    // of it (without it, kill reaches npx alone and the worker it started runs on).
    run: (ctx) => ["set -m", ctx.vars.get("aws-exports") ?? "false", `${WORKER} &`, COLLECT, LIST, KILL].join("\n"),
    check: async (r, ctx) => {
      exits(r, 0);
      const rollouts = ctx.example("example_single_tool_call").trim().split("\n").length * 2;
      expect(rollouts).toBe(10); // "10 rollouts in out/aws.jsonl"
      expect(lines(ctx, "out/aws.jsonl")).toHaveLength(rollouts);
      expect(r.stdout).toContain(`rollouts: out/aws.jsonl (${rollouts})`);
      // jobs list: "the job, completed".
      const table = r.stdout
        .slice(r.stdout.search(/^id +status +progress +done +failed /m))
        .trim()
        .split("\n");
      const columns = table[0]?.trim().split(/\s+/) ?? [];
      const jobRows = table.slice(2).map((line) =>
        Object.fromEntries(
          line
            .trim()
            .split(/\s+/)
            .map((cell, i) => [columns[i], cell]),
        ),
      );
      expect(jobRows, r.stdout).toHaveLength(1);
      expect(jobRows[0]).toMatchObject({ status: "completed", done: String(rollouts), failed: "0", total: String(rollouts) });
      // kill %1: "the worker stops: "worker: 10 done, …"".
      expect(r.stderr.trim().split("\n").at(-1), r.stderr).toMatch(new RegExp(`^worker: ${rollouts} done, `));
      expect(r.stdout + r.stderr).not.toMatch(/NodeVersionSupportWarning|AWS SDK for JavaScript/);
      // Then Ctrl-C on aws up: it stops and says so.
      await running?.stop("SIGINT");
      expect(running?.output()).toMatch(/edgegym aws: stopped\n$/);
    },
  },
];

/** The recipe's other lines, run together with the worker's entry (one shell). */
export const AWS_PART_OF: Record<string, string> = Object.fromEntries([...EXPORTS, COLLECT, LIST, KILL].map((line) => [line, WORKER]));
