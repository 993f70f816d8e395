// conversational_tool_use_simulation's example rows pass `edgegym dataset validate` (what `npm start` checks before collecting).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { edgegym } from "../helpers/cli.js";

describe("the example rows", () => {
  it("validate: the rows' own tools are the ones the environment simulates, not its conversation routes", async () => {
    const file = path.join(PROJECT_ROOT, "environments", "conversational_tool_use_simulation", "data", "example.jsonl");
    const result = await edgegym(["dataset", "validate", file, "-e", "conversational_tool_use_simulation"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("5 row(s), 0 bad; checked 5 against conversational_tool_use_simulation");
  });
});
