// Object storage: the R2 bucket that holds job inputs, scored JSONL, failures and metrics.

export function createStorage(): { bucket: sst.cloudflare.Bucket } {
  return { bucket: new sst.cloudflare.Bucket("Bucket") };
}
