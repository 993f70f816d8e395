// writer Worker entry: the `results` queue consumer, and host of the Job Durable Object.
import type { WriterEnv } from "../bindings.js";
import { handleResults } from "./consumer.js";

export { Job } from "./job.js";

export default {
  async fetch() {
    return new Response("the writer has no HTTP surface", { status: 404 });
  },
  queue: (batch, env) => handleResults(batch, env),
} satisfies ExportedHandler<WriterEnv>;
