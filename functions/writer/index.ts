// writer Worker entry: the `results` queue consumer, and host of the Job Durable Object.
import type { WriterEnv } from "../../contracts/env.generated.js";
import { r2Store } from "../../storage/r2.js";
import { handleResults } from "./consumer.js";

export { Job } from "./job.js";

export default {
  async fetch() {
    return new Response("the writer has no HTTP surface", { status: 404 });
  },
  queue: (batch, env) => handleResults(batch, { store: r2Store(env.BUCKET), jobs: env.JOBS }),
} satisfies ExportedHandler<WriterEnv>;
