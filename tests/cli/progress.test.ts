// collect's progress line counts a job's failures as the job does (it once counted 61 where there were 26).
import { describe, expect, it } from "vitest";
import { advance } from "../../local/cli/collect-jobs.js";
import { progressBar } from "../../local/cli/progress.js";

function sink() {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
  return { lines, stream };
}

describe("collect's progress", () => {
  it("reports exactly the job's done and failed counts, however the two grow between polls", () => {
    const { lines, stream } = sink();
    const progress = progressBar("collect", stream);
    progress.start(100);
    const reported = { done: 0, failed: 0 };
    // Polls where failures and successes arrive interleaved, as a job under faults reports them.
    const polls = [
      { done: 3, failed: 5 },
      { done: 20, failed: 6 },
      { done: 20, failed: 15 },
      { done: 61, failed: 20 },
      { done: 74, failed: 26 },
    ];
    for (const counts of polls) advance(progress, reported, counts);
    expect(lines.at(-1)).toBe("collect: 100/100 rollouts, 26 failed\n");
    expect(reported).toEqual({ done: 74, failed: 26 });
  });
});
