// The shape of one documented command's entry, and the placeholders the entries fill the same way.
import type { Result } from "./clone.js";
import type { DocContext } from "./context.js";

export interface Entry {
  /** The command exactly as the extractor reads it from the README (continuations joined, comment cut). */
  doc: string;
  /** What runs: the command with its placeholders filled. Default: `doc` as is. */
  run?: (ctx: DocContext) => Promise<string> | string;
  /** Variables the user has set for it, as the README's text around it says. */
  env?: (ctx: DocContext) => Promise<Record<string, string>> | Record<string, string>;
  /** Started with `&` (or the suite's own long-running process): not run to its end; the check starts and stops it. */
  background?: true;
  check: (result: Result, ctx: DocContext, run: string, env: Record<string, string>) => Promise<void> | void;
}

/** `https://<gateway>` is the suite's `npm run dev`. */
export async function gw(ctx: DocContext, text: string): Promise<string> {
  return text.replaceAll("https://<gateway>", (await ctx.gateway()).url);
}

/** `$TOKEN` in the curl examples: the dev token `npm run dev` printed. */
export async function token(ctx: DocContext): Promise<Record<string, string>> {
  return { TOKEN: (await ctx.gateway()).token };
}
