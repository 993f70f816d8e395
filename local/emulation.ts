// Local emulation: every Worker, Durable Object and binding in Miniflare (workerd), plus the vLLM simulator by default.
import path from "node:path";
import { devToken, sessionSecret } from "./secrets.js";
import { Log, LogLevel, Miniflare, Response as MiniflareResponse, type WorkerOptions } from "miniflare";
import { type LOG_LEVELS, parseVars, WORKER_VARS } from "../contracts/config.js";
import { WORKERS } from "../contracts/names.js";
import { allows, parseApiTokens } from "../contracts/tokens.js";
import { gatewayVarsFromEnv } from "../infra/gateway-vars.js";
import { COMPATIBILITY_DATE, topology, type WorkerSpec } from "../infra/topology.js";
import { buildWorkers, type Bundle } from "./build.js";
import { discoverEnvironments } from "./environments.js";
import { loadRemotes, remoteConfigFile, remoteWorkers } from "./remote.js";
import type { RemoteEnvironmentDeployment } from "../contracts/remote.js";
import { captureRuntimeOutput, sessionLogFile } from "./logs.js";
import { type Edge, startEdge } from "./edge.js";
import { type GcPacer, type GcPacingOptions, startGcPacer } from "./gc-pacer.js";
import { countingModules, readCounts, type WorkerCounts } from "./counting.js";
import { PROJECT_ROOT, STATE_DIR } from "./paths.js";
import { resolveRequest } from "./resolver.js";
import { DNS_RESOLVER_BINDING } from "../functions/model-proxy/resolver.js";
import { privateDir, tightenTree } from "./private-files.js";
import { holdState } from "./state-lock.js";
import { type Recovered, resumeRunningJobs } from "./recover.js";
import { startSimulator, type Simulator, type SimulatorOptions } from "./simulator/server.js";
import { anyDeclaresSandbox, declaresSandbox } from "./sandbox/emulated.js";
import { MissingRuntime } from "./sandbox/runtime.js";
import { type SandboxService, startSandboxService } from "./sandbox/service.js";

/**
 * POLICY_URL_ALLOW of a local run unless set (`vars.gateway.POLICY_URL_ALLOW`, EDGEGYM_POLICY_URL_ALLOW; "" allows none):
 * loopback on any port, so a policy_base_url may name the simulator or a vLLM on this machine. A deployment allows none.
 */
export const LOCAL_POLICY_URL_ALLOW = "127.0.0.1,localhost,[::1]";

/** The line a local run prints about it. */
export function policyUrlAllowLine(value: string): string {
  const shown = value.trim() ? value : "none";
  return `policy_base_url hosts allowed (POLICY_URL_ALLOW): ${shown}${value === LOCAL_POLICY_URL_ALLOW ? " (the local default: loopback)" : ""}\n`;
}

export interface LocalOptions {
  /** Gateway port on 127.0.0.1; 0 picks a free one. Default 8787. */
  port?: number;
  /** How long a connection to the gateway's port may take to send its headers (the local edge's deadline; 60 s). */
  headersTimeoutSeconds?: number;
  /** How long the gateway's port keeps an idle keep-alive connection (the local edge's; 65 s). */
  keepAliveTimeoutSeconds?: number;
  environments?: string[];
  /** A real OpenAI-compatible endpoint (base URL ending in /v1); without it the simulator is the model. */
  modelUrl?: string;
  /** Several endpoints serving the same model (each ending in /v1), pooled by the model proxy; wins over modelUrl. */
  modelUrls?: string[];
  model?: string;
  modelApiKey?: string;
  /** The judge model for LLM-as-judge environments (base URL ending in /v1); the policy model unless given. */
  judgeUrl?: string;
  judgeModel?: string;
  judgeApiKey?: string;
  /** Where Durable Object state persists; `false` keeps it in memory. Default `.edgegym/state`. */
  persist?: string | false;
  simulator?: SimulatorOptions;
  /** Extra Worker variables (e.g. MAX_STEPS for the agent). */
  vars?: Parameters<typeof topology>[0]["vars"];
  /**
   * The gateway's API_TOKENS (`name:token:scope+scope`, comma-separated; `vars.gateway.API_TOKENS` works too). Unset: a
   * dev token with the admin scope is made up for this run and returned as `token`.
   */
  apiTokens?: string;
  /** The gateway's TENANT_QUOTAS (contracts/quotas.ts; `vars.gateway.TENANT_QUOTAS` works too). Unset: no quota. */
  tenantQuotas?: string;
  verbose?: boolean;
  /** Every Worker's LOG_LEVEL (default info). */
  logLevel?: (typeof LOG_LEVELS)[number];
  /** Worker log lines: appended to a session file in `dir` (default .edgegym/logs when state persists), echoed when asked. */
  logs?: { dir?: string | false; echo?: boolean };
  /** Environments outside environments/ (a test's), each a Worker entry exporting what infra/environments.ts generates (handler, EnvironmentEntrypoint, EnvironmentSession), with its variables. */
  extraEnvironments?: { name: string; entry: string; vars?: Record<string, string>; sandbox?: boolean }[];
  /**
   * The sandbox service environment Workers reach: started here (and stopped by stop()) when an environment that declares
   * `sandbox` is among the started ones; `url` uses a running one instead, `false` starts none. `dir`: its sandboxes' directories.
   */
  sandbox?: false | { url?: string; dir?: string };
  /**
   * On persisted state, resume the running jobs whose queued work was lost with the last process (`edgegym dev` does;
   * `collect` and `npm start`, which run their own job, do not: a job they leave running is cancelled or heals itself).
   */
  resumeRunning?: boolean;
  /** Remote NeMo Gym servers (issue 24): these, else the file named (false: none; unset: EDGEGYM_REMOTE_CONFIG or ./edgegym.remote.json). */
  remotes?: RemoteEnvironmentDeployment[];
  remoteConfig?: string | false;
  /** Count every Worker's invocations, binding calls and storage rows (local/counting.ts), read through `counts`: the bench's. */
  countOperations?: boolean;
  /**
   * workerd's garbage collection paced as production's memory limit paces it (local/gc-pacer.ts), over its inspector on
   * loopback: on by default, unless EDGEGYM_GC_PACING=0. `false` leaves V8 to itself (and the inspector closed), and
   * workerd then keeps about 44 KB per finished rollout.
   */
  gcPacing?: false | GcPacingOptions;
}

export interface Local {
  /** The gateway's base URL. */
  url: string;
  environments: string[];
  miniflare: Miniflare;
  /** The simulator, when it is the model. */
  simulator?: Simulator;
  /** The local sandbox service, when this run started one. */
  sandbox?: SandboxService;
  /** Environments started but unable to run here, and why (a sandboxed one on a machine that cannot isolate code). */
  unavailable: Record<string, string>;
  modelBaseUrl: string;
  /** The dev token made up for this run (admin scope), when no API_TOKENS were given. */
  token?: string;
  /** The running jobs found on the state it started from: resumed, or not and why. */
  recovered: Recovered;
  /** The file Worker logs go to, if any. */
  logFile?: string;
  /** The POLICY_URL_ALLOW this run uses (LOCAL_POLICY_URL_ALLOW unless set). */
  policyUrlAllow: string;
  /** The garbage collection pacer (unless `gcPacing: false`, or it could not reach workerd's inspector). */
  gcPacer?: GcPacer;
  /** With `countOperations`: each Worker's counts since the last reset (reset after reading when asked). */
  counts?(reset?: boolean): Promise<Record<string, WorkerCounts>>;
  stop(): Promise<void>;
}

/** The environment variables a user sets to use a real model instead of the simulator. */
export function modelFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Pick<LocalOptions, "modelUrl" | "modelUrls" | "model" | "modelApiKey" | "judgeUrl" | "judgeModel" | "judgeApiKey" | "vars"> {
  const value = (name: string) => env[name] || undefined;
  // A comma-separated EDGEGYM_MODEL_URL is a pool of servers for the same model.
  const modelUrls = value("EDGEGYM_MODEL_URL")
    ?.split(",")
    .map((url) => url.trim())
    .filter(Boolean);
  const tokenIds = value("EDGEGYM_RETURN_TOKEN_ID_INFORMATION");
  // The gateway's limits too (EDGEGYM_MAX_IN_FLIGHT, EDGEGYM_RATE_LIMIT_PER_SECOND…), as a deployment takes them.
  const gateway = gatewayVarsFromEnv(env);
  return {
    modelUrl: modelUrls?.[0],
    ...(modelUrls && modelUrls.length > 1 ? { modelUrls } : {}),
    // Token ids and logprobs on every model call, for RL training.
    vars: {
      ...(tokenIds ? { modelProxy: { RETURN_TOKEN_ID_INFORMATION: tokenIds } } : {}),
      ...(Object.keys(gateway).length ? { gateway } : {}),
    },
    model: value("EDGEGYM_MODEL"),
    modelApiKey: value("EDGEGYM_MODEL_API_KEY"),
    judgeUrl: value("EDGEGYM_JUDGE_URL"),
    judgeModel: value("EDGEGYM_JUDGE_MODEL"),
    judgeApiKey: value("EDGEGYM_JUDGE_API_KEY"),
  };
}

/** One Worker of the topology as Miniflare runs it (exported for the test that holds local and deployed to one description). */
export function workerOptions(spec: WorkerSpec, bundle: Bundle, secrets: Record<string, string>): WorkerOptions {
  return {
    name: spec.name,
    modules: [{ type: "ESModule", path: bundle.path, contents: bundle.contents }],
    // Module names are paths relative to this root: from the default (the working directory) a command run outside the
    // project would name them "../…", which workerd refuses.
    modulesRoot: PROJECT_ROOT,
    compatibilityDate: COMPATIBILITY_DATE,
    serviceBindings: Object.fromEntries(
      Object.entries(spec.services).map(([binding, target]) => [
        binding,
        target.entrypoint ? { name: target.worker, entrypoint: target.entrypoint } : target.worker,
      ]),
    ),
    bindings: { ...spec.vars, ...Object.fromEntries(spec.secrets.filter((s) => secrets[s]).map((s) => [s, secrets[s]!])) },
    durableObjects: Object.fromEntries(Object.entries(spec.durableObjects).map(([binding, target]) => [binding, { ...target, useSQLite: true }])),
    queueProducers: spec.queueProducers,
    queueConsumers: spec.queueConsumers,
    r2Buckets: spec.buckets,
  };
}

/** The model proxies resolve a caller's host names through the OS (Node's dns.lookup), as a deployment does through DNS over HTTPS. */
function withResolver(spec: WorkerSpec, options: WorkerOptions): WorkerOptions {
  if (spec.kind !== "modelProxy" && spec.kind !== "judgeProxy") return options;
  const resolver = async (request: { url: string }) => {
    const { status, body } = await resolveRequest(request.url);
    return new MiniflareResponse(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { ...options, serviceBindings: { ...options.serviceBindings, [DNS_RESOLVER_BINDING]: resolver } };
}

/**
 * The token this run uses on the gateway's jobs routes itself (resuming the running jobs): its dev token, else an admin
 * one (it sees every tenant's jobs), else the first with the jobs scope (which sees only its own name's).
 */
export function jobsToken(given: string | undefined, dev: string | undefined): string | undefined {
  if (dev) return dev;
  const entries = parseApiTokens(given ?? "");
  return (entries.find((entry) => entry.scopes.includes("admin")) ?? entries.find((entry) => allows(entry.scopes, "jobs")))?.token;
}

export async function startLocal(options: LocalOptions = {}): Promise<Local> {
  const native = options.environments ?? discoverEnvironments();
  // Remote environments: one generated Worker each, beside the native ones and a test's own.
  const remoteFile = options.remotes ? undefined : remoteConfigFile(options.remoteConfig);
  const remotes = options.remotes ?? (remoteFile ? loadRemotes(remoteFile, native) : []);
  const extra = [...(options.extraEnvironments ?? []), ...remoteWorkers(remotes)];
  const environments = [...native, ...extra.map((e) => e.name)];
  const external = options.modelUrls?.length ? options.modelUrls : options.modelUrl ? [options.modelUrl] : undefined;
  // Two workerd processes on one SQLite state block each other: a run that finds the state taken runs on its own.
  const wanted = options.persist === undefined ? path.join(STATE_DIR, "state") : options.persist;
  const state = wanted === false ? undefined : holdState(wanted);
  const persist = state ? state.dir : false;
  // Its sessions' state, tokens' names and jobs are the user's own: 0700 folders, 0600 files, tightened if found looser.
  if (persist !== false) {
    if (path.resolve(persist).startsWith(`${STATE_DIR}${path.sep}`)) privateDir(STATE_DIR);
    tightenTree(persist);
  }
  const gcPacing = options.gcPacing ?? (process.env.EDGEGYM_GC_PACING === "0" ? false : {});
  let simulator: Awaited<ReturnType<typeof startSimulator>> | undefined;
  let sandbox: SandboxService | undefined;
  const unavailable: Record<string, string> = {};
  try {
    simulator = external ? undefined : await startSimulator(options.simulator);
    // The sandbox service, as the simulator: a server this run owns, only when a started environment declares a sandbox.
    const ownSandbox = options.sandbox !== false && !options.sandbox?.url && (await anyDeclaresSandbox(native, extra));
    try {
      sandbox = ownSandbox ? await startSandboxService({ dir: options.sandbox ? options.sandbox.dir : undefined }) : undefined;
    } catch (error) {
      // A machine that cannot isolate code still runs every other environment; the sandboxed ones say why they cannot.
      if (!(error instanceof MissingRuntime)) throw error;
      for (const name of native) if (await declaresSandbox(name)) unavailable[name] = error.message;
    }
  } catch (error) {
    await simulator?.close();
    state?.release();
    throw error;
  }
  const sandboxUrl = (options.sandbox ? options.sandbox.url : undefined) ?? sandbox?.url;
  const modelBaseUrl = external?.[0] ?? `${simulator!.url}/v1`;
  const modelName = options.model ?? (simulator ? simulator.model : "default");
  const givenTokens = options.apiTokens ?? options.vars?.gateway?.API_TOKENS;
  const policyUrlAllow = options.vars?.gateway?.POLICY_URL_ALLOW ?? LOCAL_POLICY_URL_ALLOW;
  const token = givenTokens === undefined ? devToken() : undefined;
  let output: ReturnType<typeof captureRuntimeOutput> | undefined;
  try {
    const specs = topology({
      environments,
      modelBaseUrl,
      modelBaseUrls: external,
      modelName,
      judgeBaseUrl: options.judgeUrl,
      judgeModelName: options.judgeModel ?? (options.judgeUrl ? undefined : modelName),
      vars: { ...options.vars, gateway: { ...options.vars?.gateway, POLICY_URL_ALLOW: policyUrlAllow } },
      sandboxUrl,
    });
    for (const spec of specs) {
      if (options.logLevel) spec.vars.LOG_LEVEL = options.logLevel;
      // A test's environment: its own entry file, bundled as it is (not generated from environments/<name>).
      const own = extra.find((e) => spec.environment === e.name);
      if (own) {
        spec.entry = own.entry;
        delete spec.environment;
        Object.assign(spec.vars, own.vars);
      }
    }
    // Sessions signed before a restart stay valid when the state they belong to persists.
    const signingKey = sessionSecret(persist === false ? undefined : persist);
    const secrets = (worker: string): Record<string, string> => ({
      MODEL_API_KEY: (worker === WORKERS.judgeProxy && options.judgeUrl ? options.judgeApiKey : options.modelApiKey) ?? "",
      API_TOKENS: givenTokens ?? `dev:${token}:admin`,
      TENANT_QUOTAS: options.tenantQuotas ?? options.vars?.gateway?.TENANT_QUOTAS ?? "",
      SESSION_SECRET: signingKey,
    });
    const secretsOf = (spec: WorkerSpec) => Object.fromEntries(spec.secrets.map((name) => [name, secrets(spec.name)[name]]));
    // A variable no Worker could use is refused here, at start-up, naming the Worker and the variable.
    for (const spec of specs) parseVars(WORKER_VARS[spec.kind], { ...spec.vars, ...secretsOf(spec) }, spec.name);
    const bundles = await buildWorkers(specs);
    const logDir = options.logs?.dir ?? (persist === false ? false : path.join(STATE_DIR, "logs"));
    const logFile = logDir === false ? undefined : sessionLogFile(logDir);
    output = captureRuntimeOutput({ file: logFile, echo: options.logs?.echo });
    const miniflare = new Miniflare({
      workers: specs.map((spec) => {
        const bundle = bundles.get(spec.name)!;
        const worker = workerOptions(spec, bundle, secrets(spec.name));
        // The gateway also gets a socket of its own, which the local edge serves: no Miniflare entry Worker between.
        const direct = spec.name === WORKERS.gateway ? { unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }] } : {};
        return withResolver(spec, { ...worker, ...direct, ...(options.countOperations ? { modules: countingModules(spec, bundle) } : {}) });
      }),
      host: "127.0.0.1",
      // No fetch of the Request.cf object from Cloudflare: this runs offline.
      cf: false,
      // workerd's own socket, reached only through the local edge (edge.ts), which serves the gateway's port.
      port: 0,
      defaultPersistRoot: persist === false ? undefined : persist,
      // workerd's inspector, on a loopback port it picks, for the collection pacer.
      ...(gcPacing === false ? {} : { inspectorPort: 0 }),
      log: new Log(options.verbose ? LogLevel.INFO : LogLevel.WARN),
      handleRuntimeStdio: output.handle,
    });
    // A runtime that fails to start (or whose edge cannot take the port) is disposed of: its half-started servers would
    // keep the process from exiting.
    let edge: Edge;
    try {
      await miniflare.ready;
      edge = await startEdge({
        upstream: await miniflare.unsafeGetDirectURL(WORKERS.gateway),
        host: "127.0.0.1",
        port: options.port ?? 8787,
        headersSeconds: options.headersTimeoutSeconds,
        keepAliveSeconds: options.keepAliveTimeoutSeconds,
      });
    } catch (error) {
      await miniflare.dispose().catch(() => undefined);
      throw error;
    }
    const url = edge.url;
    // Without the pacer the runtime still serves, only growing with the work it does: a warning, not a failure.
    const gcPacer =
      gcPacing === false
        ? undefined
        : await miniflare
            .getInspectorURL()
            .then((inspector) => startGcPacer(inspector, gcPacing))
            .catch((error: Error) => {
              process.stderr.write(`edgegym: workerd's garbage collection is not paced (${error.message}); its memory will grow with the work it does\n`);
              return undefined;
            });
    state?.describe(`the edgegym (pid ${process.pid}) serving ${url}`);
    // Resuming calls the gateway's jobs routes, with a token of this run's that may use them.
    const resumeToken = jobsToken(givenTokens, token);
    const fetcher = (route: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (resumeToken) headers.set("authorization", `Bearer ${resumeToken}`);
      return fetch(`${url}${route}`, { ...init, headers });
    };
    // A job that cannot be resumed is reported in `recovered.failed`, never a reason not to start.
    const recovered: Recovered = persist !== false && options.resumeRunning === true ? await resumeRunningJobs(fetcher) : { jobs: [], failed: [] };
    const logs = output;
    return {
      url,
      environments,
      miniflare,
      simulator,
      ...(sandbox ? { sandbox } : {}),
      unavailable,
      modelBaseUrl,
      ...(token ? { token } : {}),
      recovered,
      ...(logFile ? { logFile } : {}),
      policyUrlAllow,
      ...(gcPacer ? { gcPacer } : {}),
      ...(options.countOperations
        ? {
            counts: (reset?: boolean) =>
              readCounts(
                miniflare,
                specs.map((spec) => spec.name),
                reset,
              ),
          }
        : {}),
      async stop() {
        await edge.close();
        await gcPacer?.stop();
        await miniflare.dispose();
        await simulator?.close();
        await sandbox?.stop();
        await logs.close();
        state?.release();
      },
    };
  } catch (error) {
    await simulator?.close();
    await sandbox?.stop();
    await output?.close();
    state?.release();
    throw error;
  }
}
