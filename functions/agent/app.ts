// agent: POST /run takes a dataset row and returns the scored rollout.
import { Hono } from "hono";
import { DatasetRow, parseOr400 } from "../../protocol/index.js";
import type { AgentEnv } from "../bindings.js";
import { notFound, onError, readJson } from "../shared/http.js";
import { executeRow } from "./execute.js";
import { ENVIRONMENT_HEADER } from "./resolve.js";

export const app = new Hono<{ Bindings: AgentEnv }>();
app.onError(onError);
app.notFound(notFound);

app.get("/health", (c) => c.json({ status: "ok" }));

app.post("/run", async (c) => {
  const row = parseOr400(DatasetRow, await readJson(c), "dataset row");
  const { record } = await executeRow(c.env, row, {
    environment: c.req.query("environment") ?? c.req.header(ENVIRONMENT_HEADER),
    maxSteps: c.req.query("max_steps"),
    signal: c.req.raw.signal,
  });
  return c.json(record);
});
