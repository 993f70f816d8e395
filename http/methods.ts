// 405 for a known path asked with a method it does not take: the envelope names the methods it does, as Allow does.
import type { Context, Env, Hono, Next } from "hono";
import { EdgegymError } from "../protocol/index.js";

/** Registers, after an app's routes, a 405 answer on each path for every other method. */
export function allowOnly<E extends Env>(app: Hono<E>, routes: Record<string, readonly string[]>): void {
  for (const [path, methods] of Object.entries(routes)) {
    const allow = [...new Set([...methods, ...(methods.includes("GET") ? ["HEAD"] : [])])].join(", ");
    app.all(path, async (c: Context<E>, next: Next) => {
      // An allowed method that reached here has no handler for this exact path: the app's 404 answers it.
      if (allow.split(", ").includes(c.req.method)) return next();
      // A body the answer does not need is still read to its end (a keep-alive connection must not be left mid-body).
      await discardBody(c.req.raw);
      c.header("allow", allow);
      // Thrown, so the app's error handler makes the envelope (the gateway's with its request id); the header stays.
      throw new EdgegymError(405, "method_not_allowed", `${c.req.method} is not allowed on ${new URL(c.req.url).pathname} (allowed: ${allow})`);
    });
  }
}

/** Reads a request body to its end without keeping it: bounded memory, however large the body. */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  try {
    await request.body.pipeTo(new WritableStream());
  } catch {
    // The client went away mid-body: there is nothing left to read, and no one to answer.
  }
}
