// Jobs in a bucket alone: exactly-once results, completion and metrics without a Durable Object (the AWS path).
export { type BucketJobs, bucketJobs } from "./bucket-jobs.js";
export { type BucketJobOptions, createBucketJob } from "./create.js";
export { ledgerKeys } from "./keys.js";
export { type BucketJobManifest, readManifest } from "./manifest.js";
export { BUCKET_RESULT_LIMITS, bucketResults } from "./results-queue.js";
export type { SealOptions } from "./seal.js";
