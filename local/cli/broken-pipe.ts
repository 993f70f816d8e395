// A reader that stops early (`edgegym jobs status --json | head`) ends the command quietly, not with an EPIPE stack.
import type { Writable } from "node:stream";

/** On EPIPE the reader is gone: nothing more can be shown, so the process ends at once with success, as `cat` does. */
export function exitQuietlyOnBrokenPipe(stream: Writable = process.stdout): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}
