// The dashboard's generated module is its sources, built: a change to the browser code without `npm run gen:dashboard` fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ASSETS_PATH, dashboardAssetsSource } from "../../infra/dashboard-assets.js";

describe("functions/gateway/dashboard/assets.generated.ts", () => {
  it("is what `npm run gen:dashboard` builds from functions/gateway/dashboard/client/", async () => {
    // Compared whole, reported short: the file is one long line of minified code.
    const current = readFileSync(ASSETS_PATH, "utf8") === (await dashboardAssetsSource());
    expect(current, "functions/gateway/dashboard/assets.generated.ts is stale: run `npm run gen:dashboard`").toBe(true);
  });
});
