/// <reference path="./.sst/platform/config.d.ts" />
// Deployment: SST stands edgegym up on Cloudflare. Everything lives in infra/; this file only wires it.

export default $config({
  app(input) {
    return {
      name: "edgegym",
      removal: input?.stage === "production" ? "retain" : "remove",
      protect: input?.stage === "production",
      home: "cloudflare",
      providers: { cloudflare: "6.15.0" },
    };
  },
  async run() {
    const { deploy } = await import("./infra/index");
    return deploy();
  },
});
