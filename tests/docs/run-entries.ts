// Runs a table of documented commands in order, in one fresh clone, as the suite's tests; a known-broken entry is
// expected to fail (`it.fails`) until the fix is merged and it is taken off KNOWN_BROKEN_UNTIL_MERGE.
import { afterAll, beforeAll, describe, it } from "vitest";
import { DocContext } from "./context.js";
import type { Entry } from "./entry.js";
import { KNOWN_BROKEN_UNTIL_MERGE } from "./not-run.js";

const NOT_RUN = { code: null, stdout: "", stderr: "" };

export function runEntries(title: string, entries: Entry[]): void {
  describe(title, () => {
    let ctx: DocContext;
    beforeAll(() => {
      ctx = new DocContext();
      ctx.writeInputs();
    });
    afterAll(async () => {
      await ctx?.close();
    });

    for (const entry of entries) {
      const broken = KNOWN_BROKEN_UNTIL_MERGE[entry.doc];
      const test = broken ? it.fails : it;
      test(`${entry.doc}${broken ? ` (known broken until merge: ${broken})` : ""}`, async () => {
        const run = entry.run ? await entry.run(ctx) : entry.doc;
        const env = entry.env ? await entry.env(ctx) : {};
        const result = entry.background ? NOT_RUN : await ctx.run(run, env);
        await entry.check(result, ctx, run, env);
      }, 300_000);
    }
  });
}
