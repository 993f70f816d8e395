// A Worker for the ledger contract suite: both job ledgers side by side in workerd, each called by name over HTTP. The
// Job Durable Object is the writer's own class; the bucket ledger keeps its jobs in a second R2 bucket. The rollouts
// queue's messages (what a resume or a heal sends) are kept for the test to read.
import type { WriterEnv } from "../../contracts/env.generated.js";
import type { JobLedger } from "../../contracts/jobs.js";
import type { WorkMessage } from "../../contracts/messages.js";
import {
  bucketJobs,
  createJob,
  DEFAULT_JOB_CAPS,
  type IngestOptions,
  type JobCaps,
  numberedLines,
  objectLedger,
  openUse,
  ownedIdPage,
} from "../../ledger/index.js";
import { EdgegymError } from "../../protocol/index.js";
import { cloudflareQueue } from "../../queues/cloudflare.js";
import { guardedQueue } from "../../queues/guarded.js";
import { r2Store } from "../../storage/r2.js";
import type { ObjectStore } from "../../storage/store.js";

export { Job } from "../../functions/writer/job.js";

interface HarnessEnv extends WriterEnv {
  LEDGER_BUCKET: R2Bucket;
}

type Call = { ledger: "object" | "bucket"; method: keyof JobLedger; args: unknown[] };

/** Messages the rollouts queue delivered, oldest first (one isolate runs this Worker: a module's state is shared). */
const sent: WorkMessage[] = [];

function storeOf(env: HarnessEnv, which: Call["ledger"]): ObjectStore {
  return r2Store(which === "object" ? env.BUCKET : env.LEDGER_BUCKET);
}

function ledgerOf(env: HarnessEnv, which: Call["ledger"]): JobLedger {
  if (which === "object") return objectLedger(env.JOBS, storeOf(env, which));
  // The chaos suite's queue fault, as the Job object's own queue has it (CHAOS_QUEUE_SEND_FAILURE_RATE).
  const rate = Number(env.CHAOS_QUEUE_SEND_FAILURE_RATE ?? 0);
  return bucketJobs(storeOf(env, which), { rollouts: () => guardedQueue(cloudflareQueue<WorkMessage>(env.ROLLOUTS), { sendFailureRate: rate }) });
}

/** A job from JSONL lines through the one row-ingest (ledger/ingest.ts), into one ledger: its info, or the 4xx envelope. */
async function create(env: HarnessEnv, which: Call["ledger"], lines: string[], options: Omit<IngestOptions, "caps"> & { caps?: Partial<JobCaps> }) {
  const sinks = { store: storeOf(env, which), ledger: ledgerOf(env, which), rollouts: cloudflareQueue<WorkMessage>(env.ROLLOUTS) };
  try {
    const source = numberedLines(
      (async function* () {
        yield* lines;
      })(),
    );
    return Response.json(await createJob(sinks, source, { ...options, caps: { ...DEFAULT_JOB_CAPS, ...options.caps } }), { status: 201 });
  } catch (error) {
    if (error instanceof EdgegymError) return Response.json(error.toEnvelope(), { status: error.status });
    throw error;
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/sent") return Response.json(sent.splice(0));
    if (url.pathname === "/owners") {
      // A tenant's owner index as the gateway reads it: its job ids, and its unfinished jobs and rollouts (for quotas).
      const { ledger, owner } = (await request.json()) as { ledger: Call["ledger"]; owner: string };
      const store = storeOf(env, ledger);
      const jobs = ledgerOf(env, ledger);
      const { ids } = await ownedIdPage(store, owner, { limit: 1000 }, /^job_/);
      return Response.json({ ids, open: await openUse(store, owner, (id) => jobs.info(id)) });
    }
    if (url.pathname === "/create") {
      const { ledger, lines, options } = (await request.json()) as { ledger: Call["ledger"]; lines: string[]; options: IngestOptions };
      return create(env, ledger, lines, options);
    }
    const call = (await request.json()) as Call;
    const ledger = ledgerOf(env, call.ledger);
    try {
      if (call.method === "lines") {
        let text = "";
        for await (const part of ledger.lines(call.args[0] as string, call.args[1] as "rollout" | "failure")) text += part;
        return Response.json({ value: text });
      }
      const method = ledger[call.method] as (...args: unknown[]) => Promise<unknown>;
      return Response.json({ value: (await method.apply(ledger, call.args)) ?? null });
    } catch (error) {
      return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 500 });
    }
  },
  async queue(batch) {
    for (const message of batch.messages) {
      sent.push(message.body as WorkMessage);
      message.ack();
    }
  },
} satisfies ExportedHandler<HarnessEnv>;
