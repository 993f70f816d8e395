/// <reference path="./.sst/platform/config.d.ts" />
// Deployment: SST stands edgegym up on Cloudflare, on AWS (EDGEGYM_BACKEND=aws) or on both (=both). Everything lives in
// infra/; this file only wires it (SST allows no imports at its top, so the backend is read here as infra/backend.ts reads it).

export default $config({
  app(input) {
    const backend = (process.env.EDGEGYM_BACKEND ?? "").trim().toLowerCase() || "cloudflare";
    const cloudflare = backend !== "aws";
    const aws = backend !== "cloudflare";
    return {
      name: "edgegym",
      removal: input?.stage === "production" ? "retain" : "remove",
      protect: input?.stage === "production",
      // SST keeps its state where the app lives: R2, or S3 for an AWS-only deployment.
      home: cloudflare ? "cloudflare" : "aws",
      providers: { ...(cloudflare ? { cloudflare: "6.15.0" } : {}), ...(aws ? { aws: "7.20.0" } : {}) },
    };
  },
  async run() {
    const { deploy } = await import("./infra/index");
    return deploy();
  },
});
