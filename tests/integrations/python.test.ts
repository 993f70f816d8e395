// The Python pieces' own unit tests (integrations/tests, unittest): the client and the NeMo Gym agent server.
import { describe, expect, it } from "vitest";
import { runPythonUnitTests } from "./agent-server.js";

describe("integrations/ (Python, standard library only)", () => {
  it("passes its unittest suite with no warning of a leaked socket", async () => {
    const { code, output } = await runPythonUnitTests();
    expect(code, output).toBe(0);
    expect(output).toMatch(/\nOK\s*$/);
    expect(output).not.toContain("ResourceWarning");
  });
});
