// writer Worker entry: the `results` queue consumer (and its dead-letter queue's), and host of the Job Durable Object.
import type { WriterEnv } from "../../contracts/env.generated.js";
import { handleResults } from "./consumer.js";
import { writerPorts } from "./ports.js";

export { Job } from "./job.js";

export default {
  async fetch() {
    return new Response("the writer has no HTTP surface", { status: 404 });
  },
  queue: (batch, env) => handleResults(batch, writerPorts(env)),
} satisfies ExportedHandler<WriterEnv>;
