// The dashboard's generated module is its sources, built: a change to the browser code without `npm run gen:dashboard` fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ASSETS_PATH, dashboardAssetsSource } from "../../infra/dashboard-assets.js";

describe("functions/gateway/dashboard/assets.generated.ts", () => {
  it("is what `npm run gen:dashboard` builds from functions/gateway/dashboard/client/", async () => {
    expect(readFileSync(ASSETS_PATH, "utf8")).toBe(await dashboardAssetsSource());
  });
});
