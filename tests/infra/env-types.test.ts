// Each Worker's Env and variables: the generated types stay what the topology says, and a bad variable stops start-up.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../contracts/config.js";
import { envTypesSource, GENERATED_PATH } from "../../infra/env-types.js";
import { startLocal } from "../../local/emulation.js";

describe("contracts/env.generated.ts", () => {
  it("is what `npm run gen:types` generates from infra/topology.ts (run it after changing the topology)", () => {
    expect(readFileSync(GENERATED_PATH, "utf8")).toBe(envTypesSource());
  });
});

describe("Worker variables at local start-up", () => {
  it("a value the Worker cannot use is refused before anything starts, naming the Worker and the variable", async () => {
    const started = startLocal({ port: 0, persist: false, environments: [], vars: { agent: { MAX_ATTEMPTS: "zero" } } });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toMatchObject({
      worker: expect.stringContaining("agent"),
      problems: [{ variable: "MAX_ATTEMPTS", message: expect.stringContaining('got "zero"') }],
    });
    await expect(started).rejects.toThrow(/agent.*MAX_ATTEMPTS must be a number, got "zero"/);
  });
});
