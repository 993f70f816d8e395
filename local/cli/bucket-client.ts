// The jobs API of the AWS path, for the CLI: jobs created, followed and read in S3 (and enqueued to SQS) by the CLI itself,
// with the same methods as the gateway's JobsClient, so `collect` and `jobs` read the same whichever backend holds the job.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { bucketStore, parseBucket } from "../../aws/ports.js";
import { chooseEnvironments, loadEnvironments } from "../../aws/environments.js";
import type { EnvironmentRpc } from "../../contracts/rpc.js";
import { JOBS_PREFIX, type WorkMessage } from "../../contracts/messages.js";
import { inProcessEnvironment } from "../../environments/sdk/index.js";
import { discoverEnvironments } from "../../infra/environments.js";
import { isTenantJob, TENANT_NAME } from "../../contracts/tenants.js";
import { type BucketJobs, bucketJobs, createJob, DEFAULT_JOB_CAPS, numberedLines, ownedIdPage, readManifest } from "../../ledger/index.js";
import { EdgegymError } from "../../protocol/index.js";
import { guardedQueue } from "../../queues/guarded.js";
import { sqsQueue } from "../../queues/sqs.js";
import { type AwsClients, awsClients } from "../../storage/aws.js";
import type { ObjectStore } from "../../storage/store.js";
import { PROJECT_ROOT } from "../paths.js";
import type { GatewayError, JobOptionsInput, JobSnapshot } from "./gateway-client.js";

/** A tenant's job ids in its owner index. */
const TENANT_JOB_ID = /^job_[a-z0-9-]+_[a-z0-9]+$/;

export interface BucketTarget {
  /** `s3://bucket/prefix`. */
  bucket: string;
  /** The `rollouts` queue: needed to create or resume a job. */
  queueUrl?: string;
  /**
   * The tenant acting (`--tenant`, EDGEGYM_TENANT): its jobs are `job_<tenant>_…` and record it as their owner; another
   * tenant's job is "no job". Without it the CLI acts as the operator. What enforces it is IAM (infra/aws.ts).
   */
  tenant?: string;
  clients?: AwsClients;
}

export class BucketJobsClient {
  private readonly clients: AwsClients;
  private readonly store: ObjectStore;
  private readonly jobs: BucketJobs;
  private surfaces?: Map<string, EnvironmentRpc>;

  constructor(private readonly target: BucketTarget) {
    if (target.tenant !== undefined && !TENANT_NAME.test(target.tenant)) {
      throw new Error(`--tenant "${target.tenant}": a tenant is 1-40 of a-z 0-9 - (no _: job ids on AWS are job_<tenant>_…)`);
    }
    this.clients = target.clients ?? awsClients();
    this.store = bucketStore(this.clients, parseBucket(target.bucket));
    // A job whose last result landed without its job being finished (the agent that wrote it died) is finished here:
    // its metrics come from each environment's own aggregate metrics, in process, as the agent would have computed them.
    this.jobs = bucketJobs(this.store, {
      environment: (name) => this.surfaces?.get(name),
      rollouts: () => guardedQueue(sqsQueue(this.clients.sqs, this.queue())),
    });
  }

  /** Where the jobs live, as the CLI names them to the user. */
  get url(): string {
    return this.target.bucket;
  }

  /** The environments an AWS agent runs: this checkout's (they run in process there). */
  async environments(): Promise<string[]> {
    return discoverEnvironments(PROJECT_ROOT);
  }

  /** The job, if the tenant may see it: another tenant's is as absent as one that does not exist. */
  private visible(id: string): string {
    if (this.target.tenant !== undefined && !isTenantJob(id, this.target.tenant)) throw this.missing(id);
    return id;
  }

  private missing(id: string): Error {
    return new Error(`no job "${id}" in ${this.target.bucket}`);
  }

  private queue(): string {
    if (!this.target.queueUrl) throw new Error("this needs the rollouts queue: pass --queue-url <sqs url>");
    return this.target.queueUrl;
  }

  /** Loads the job's environment (or, for a job whose rows name theirs, every one) for its metrics hooks. */
  private async withEnvironments(environment?: string): Promise<void> {
    if (this.surfaces) return;
    const names = environment ? [environment] : chooseEnvironments(PROJECT_ROOT, process.env.EDGEGYM_ENVIRONMENTS);
    const environments = await loadEnvironments(PROJECT_ROOT, names);
    // Only their metrics hooks are called here: no model (nor judge) is needed.
    this.surfaces = new Map(Object.entries(environments).map(([name, definition]) => [name, inProcessEnvironment(definition)]));
  }

  async create(file: string, options: JobOptionsInput): Promise<JobSnapshot> {
    const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
    try {
      const sinks = { store: this.store, ledger: this.jobs, rollouts: guardedQueue(sqsQueue<WorkMessage>(this.clients.sqs, this.queue())) };
      return await createJob(sinks, numberedLines(lines), {
        ...(options.environment ? { environment: options.environment } : {}),
        num_repeats: options.num_repeats ?? 1,
        ...(options.limit ? { limit: options.limit } : {}),
        skip_invalid: options.skip_invalid ?? false,
        // As the gateway takes them from POST /v1/jobs: overrides merged into each row, the agent's tool naming mode.
        ...(options.responses_create_params ? { responses_create_params: options.responses_create_params } : {}),
        ...(options.tool_names ? { model: { toolNames: options.tool_names } } : {}),
        environments: discoverEnvironments(PROJECT_ROOT),
        caps: DEFAULT_JOB_CAPS,
        skipHint: "skip them to run the valid rows",
        ...(this.target.tenant ? { owner: this.target.tenant, ownerInId: true } : {}),
      });
    } catch (error) {
      if (!(error instanceof EdgegymError)) throw error;
      // As the gateway answers it: the CLI reports every bad line as file:line: field.
      const failure: GatewayError = new Error(error.message);
      failure.status = error.status;
      failure.envelope = error.toEnvelope().error;
      throw failure;
    } finally {
      lines.close();
    }
  }

  async get(id: string): Promise<JobSnapshot> {
    const info = await this.jobs.info(this.visible(id));
    if (!info) throw this.missing(id);
    if (info.status !== "running" || info.counts.done + info.counts.failed < info.counts.total) return info;
    await this.withEnvironments(info.environment);
    return (await this.jobs.info(id, { finish: true }))!;
  }

  async list(): Promise<{ data: JobSnapshot[] }> {
    const ids: string[] = [];
    // A tenant lists its owner index only (the keys its IAM policy lets it list); the operator, every job.
    if (this.target.tenant) ids.push(...(await ownedIdPage(this.store, this.target.tenant, { limit: Number.MAX_SAFE_INTEGER }, TENANT_JOB_ID)).ids);
    else
      for (let cursor: string | undefined, first = true; first || cursor; first = false) {
        const page = await this.store.list({ prefix: JOBS_PREFIX, delimiter: "/", ...(cursor ? { cursor } : {}) });
        for (const prefix of page.prefixes) ids.push(prefix.slice(JOBS_PREFIX.length, -1));
        cursor = page.cursor;
      }
    const infos = await Promise.all(ids.map((id) => this.jobs.info(id)));
    // Newest first (ids of several tenants do not sort by time).
    return { data: infos.filter((info): info is NonNullable<typeof info> => info !== null).sort((a, b) => b.created_at - a.created_at) };
  }

  async cancel(id: string): Promise<JobSnapshot> {
    return (await this.jobs.cancel(this.visible(id))) ?? Promise.reject(this.missing(id));
  }

  async resume(id: string): Promise<JobSnapshot & { resumed: number }> {
    await this.withEnvironments((await this.jobs.info(this.visible(id)))?.environment);
    const result = await this.jobs.resume(id);
    if (!result) throw this.missing(id);
    if (!result.ok) throw new Error(result.error.message);
    return { ...result.value.info, resumed: result.value.resumed };
  }

  /** The job's scored JSONL (or failures), ordered by task then repeat. Following a job as it runs needs a gateway. */
  async lines(id: string, kind: "rollouts" | "failures", options: { follow?: boolean } = {}): Promise<ReadableStream<Uint8Array>> {
    if (options.follow) {
      throw new Error("--follow needs a gateway (--url); a job in a bucket is read as it stands: run without --follow, or once it has ended");
    }
    // An unknown job (or another tenant's) is an error, as on the gateway, not an empty file.
    if (!(await readManifest(this.store, this.visible(id)))) throw this.missing(id);
    const lines = this.jobs.lines(id, kind === "rollouts" ? "rollout" : "failure");
    const encoder = new TextEncoder();
    return Readable.toWeb(
      Readable.from(
        (async function* () {
          for await (const text of lines) yield encoder.encode(text);
        })(),
      ),
    ) as ReadableStream<Uint8Array>;
  }
}
