// What each route asks of a request: the scope its token needs, how large a body it takes, and whether it holds one of
// the deployment's slots while it runs. A route missing here needs the admin scope (closed unless listed).
import type { Context } from "hono";
import type { Scope } from "../../contracts/tokens.js";

export interface RoutePolicy {
  /** No token asked (/health, and the dashboard's static page and assets). */
  public?: boolean;
  scope: Scope;
  /** A second scope that also opens the route (GET /v1/environments: `read`, or `run`). */
  or?: Scope;
  /** `json`: MAX_BODY_BYTES; `upload`: a streamed upload, MAX_UPLOAD_BYTES. */
  body: "json" | "upload";
  /** Holds an admission slot while it runs (MAX_IN_FLIGHT for the deployment). */
  admit?: boolean;
}

interface Rule {
  method: string | "*";
  path: RegExp;
  policy: RoutePolicy | ((c: Context) => RoutePolicy);
}

const isJson = (c: Context) => (c.req.header("content-type") ?? "").includes("application/json");

const RULES: Rule[] = [
  { method: "GET", path: /^\/health$/, policy: { public: true, scope: "admin", body: "json" } },
  // The dashboard's page and assets: public (its data comes from the routes below, with the token the page is given).
  { method: "GET", path: /^\/(dashboard\/.*)?$/, policy: { public: true, scope: "admin", body: "json" } },
  // NeMo Gym's head-server routes: discovery and /aggregate_metrics by agent_ref are part of running rollouts.
  { method: "GET", path: /^\/(global_config_dict_yaml|server_instances)$/, policy: { scope: "run", body: "json" } },
  { method: "POST", path: /^\/aggregate_metrics$/, policy: { scope: "run", body: "json" } },
  { method: "POST", path: /^\/run$/, policy: { scope: "run", body: "json", admit: true } },
  // A batch takes its slots row by row, each while its rollout runs (run-batch.ts): none for the request itself.
  { method: "POST", path: /^\/run\/batch$/, policy: { scope: "run", body: "json" } },
  // The list of environments is read-only; NeMo Gym's resources-server routes behind the gateway run an environment's
  // tools and verifier: part of a rollout.
  { method: "GET", path: /^\/v1\/environments$/, policy: { scope: "read", or: "run", body: "json" } },
  { method: "*", path: /^\/v1\/environments(\/|$)/, policy: { scope: "run", body: "json" } },
  // OpenEnv's environment server in front of each environment: the same tools and verifier, by its protocol.
  { method: "*", path: /^\/openenv\//, policy: { scope: "run", body: "json" } },
  { method: "POST", path: /^\/v1\/(responses|chat\/completions)$/, policy: { scope: "model", body: "json" } },
  { method: "GET", path: /^\/v1\/models$/, policy: { scope: "model", body: "json" } },
  // A job upload streams its rows into the bucket: a slot while it does, and the upload cap unless it is a JSON request.
  { method: "POST", path: /^\/v1\/jobs$/, policy: (c) => ({ scope: "jobs", body: isJson(c) ? "json" : "upload", admit: true }) },
  // Reading jobs and listing uploads needs `read` (which `jobs` includes); changing anything needs `jobs`.
  // A take from the group feed moves the trainer's cursor: it needs `jobs`, though it is a GET.
  { method: "GET", path: /^\/v1\/jobs\/[^/]+\/groups$/, policy: { scope: "jobs", body: "json" } },
  { method: "GET", path: /^\/v1\/(jobs|files)(\/|$)/, policy: { scope: "read", body: "json" } },
  { method: "*", path: /^\/v1\/jobs(\/|$)/, policy: { scope: "jobs", body: "json" } },
  { method: "PUT", path: /^\/v1\/files\/[^/]+$/, policy: { scope: "jobs", body: "upload" } },
  { method: "*", path: /^\/v1\/files(\/|$)/, policy: { scope: "jobs", body: "json" } },
];

const ADMIN_ONLY: RoutePolicy = { scope: "admin", body: "json" };

export function policyFor(c: Context): RoutePolicy {
  const method = c.req.method;
  const path = c.req.path;
  for (const rule of RULES) {
    if ((rule.method === "*" || rule.method === method) && rule.path.test(path)) {
      return typeof rule.policy === "function" ? rule.policy(c) : rule.policy;
    }
  }
  return ADMIN_ONLY;
}
