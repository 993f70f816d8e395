// An environment operation's outcome log (environments/sdk/log.ts): a 5xx is logged with what the environment said; the
// logger is made only for it.
import { describe, expect, it } from "vitest";
import { logOutcome } from "../../environments/sdk/log.js";
import { createLogger } from "../../http/log.js";

function capture() {
  const lines: string[] = [];
  let made = 0;
  const log = () => {
    made++;
    return createLogger("resources-test", "info", (line) => lines.push(line));
  };
  return { lines, log, made: () => made };
}

describe("logOutcome", () => {
  it("a 5xx outcome is logged as `operation failed`, naming the tool, the code and the message, and returned as it is", () => {
    const { lines, log } = capture();
    const outcome = { status: 500, body: { error: { code: "tool_error", message: "boom" } } };
    expect(logOutcome(log, { kind: "tool", name: "add" }, outcome, Date.now())).toBe(outcome);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "error", msg: "operation failed", operation: "tool add", outcome: "tool_error", error: "boom" });
  });

  it("a successful outcome logs nothing and makes no logger", () => {
    const { lines, log, made } = capture();
    const outcome = { status: 200, body: { count: 1 } };
    expect(logOutcome(log, { kind: "verify" }, outcome, Date.now())).toBe(outcome);
    expect(lines).toEqual([]);
    expect(made()).toBe(0);
  });
});
