// Control characters from outside (a path, an upstream's error, a row) never reach a log or a terminal raw: the JSON
// lines escape every one (C1 and bidi marks too), the readable lines and the CLI's problem lines print escapes.
import { describe, expect, it } from "vitest";
import { escapeControl, formatLine } from "../../http/log.js";
import { formatProblem } from "../../local/cli/dataset.js";
import { parseLogLine, prettyLine } from "../../local/logs.js";

const HOSTILE = "/\x1b[31mX\nFAKE level=error\r\x9b2J\u202eevil\u2028next\x7f\x00";
const RAW = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("control characters in logs", () => {
  it("escapeControl writes each as an escape, on one line", () => {
    expect(escapeControl(HOSTILE)).toBe("/\\u001b[31mX\\nFAKE level=error\\r\\u009b2J\\u202eevil\\u2028next\\u007f\\u0000");
    expect(escapeControl("plain text, ünïcode ✓")).toBe("plain text, ünïcode ✓");
  });

  it("a JSON log line holds none raw, and reads back to the very text", () => {
    const line = formatLine("info", "gateway", "request", { path: HOSTILE, error: new Error(HOSTILE) });
    expect(line).not.toMatch(RAW);
    const record = parseLogLine(line);
    expect(record?.path).toBe(HOSTILE);
    expect(record?.error).toBe(HOSTILE);
  });

  it("the readable line (`edgegym dev`, `edgegym logs`) is one line with the escapes as text", () => {
    const record = parseLogLine(formatLine("warn", "agent", `msg ${HOSTILE}`, { path: HOSTILE, nested: { why: HOSTILE } }));
    const pretty = prettyLine(record!);
    expect(pretty).not.toMatch(RAW);
    expect(pretty.split("\n")).toHaveLength(1);
    expect(pretty).toContain("path=/\\u001b[31mX\\nFAKE");
  });

  it("a dataset problem quoting a row's field prints on one line", () => {
    const shown = formatProblem({ file: "rows.jsonl", line: 3, field: "a\x1b]0;title\x07", message: "bad\nrows.jsonl:4: forged" });
    expect(shown).toBe("rows.jsonl:3: a\\u001b]0;title\\u0007: bad\\nrows.jsonl:4: forged");
  });
});
