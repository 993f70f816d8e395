// A collection's output is written as rollouts finish, then put back in task-then-repeat order from an index of line places.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sortByIndex } from "../../local/cli/output-sort.js";

const record = (task: number, rollout: number, extra = "") => JSON.stringify({ _ng_task_index: task, _ng_rollout_index: rollout, text: `réponse ${extra}` });

describe("sortByIndex", () => {
  it("orders the records by task then repeat, byte for byte, and leaves out a line cut short by a killed write", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "edgegym-sort-")), "out.jsonl");
    const lines = [record(2, 1, "🦀"), record(0, 1), record(10, 0, "中文"), record(0, 0), record(2, 0)];
    writeFileSync(file, `${lines.join("\n")}\n{"_ng_task_index": 1, "_ng_rol`);

    expect(await sortByIndex(file)).toBe(5);
    expect(readFileSync(file, "utf8")).toBe(`${[record(0, 0), record(0, 1), record(2, 0), record(2, 1, "🦀"), record(10, 0, "中文")].join("\n")}\n`);
  });

  it("keeps an ordered file as it is (CRLF line ends included)", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "edgegym-sort-")), "out.jsonl");
    const text = `${record(0, 0)}\r\n${record(1, 0)}\r\n`;
    writeFileSync(file, text);
    expect(await sortByIndex(file)).toBe(2);
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});
