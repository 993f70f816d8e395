// Jobs' ledgers and their rows: the Job Durable Object's (Cloudflare) and the bucket's alone (AWS), one row-ingest for both.
export { type BucketJobs, type BucketJobsOptions, bucketJobs } from "./bucket-jobs.js";
export { checkRepeats, createJob, DEFAULT_JOB_CAPS, type IngestOptions, ingestRows, type JobCaps, type JobSinks, numberedLines } from "./ingest.js";
export { ledgerKeys } from "./keys.js";
export { type BucketJobManifest, readManifest } from "./manifest.js";
export { type ObjectLedger, objectLedger, resultBytes } from "./object-ledger.js";
export type { SealOptions } from "./seal.js";
export { indexOwner, markOpen, type OpenUse, openUse, ownedIdPage, ownerKeys, owns } from "./owners.js";
