// Child process of cpu.bench.ts: runs one checkout's local emulation (its own local/emulation.ts, imported by path) and
// answers the parent over IPC with its own process.cpuUsage(), so the emulation's Node process is measured alone.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { WorkerCounts } from "../../local/counting.js";
import type { HostReply, HostRequest } from "./processes.js";
import { BENCH_TOKEN } from "./workload.js";

// Only what the bench relies on: startLocal's public options and result, which the refactor keeps.
interface Local {
  url: string;
  /** The bearer token the emulation made up, on a checkout whose gateway requires one. */
  token?: string;
  /** On a checkout that counts operations (local/counting.ts), when asked to. */
  counts?(reset?: boolean): Promise<Record<string, WorkerCounts>>;
  stop(): Promise<void>;
}
interface Emulation {
  startLocal(options: {
    port: number;
    persist: false;
    environments: string[];
    modelUrl: string;
    model: string;
    apiTokens: string;
    vars: Record<string, Record<string, string>>;
    countOperations?: boolean;
  }): Promise<Local>;
}

const [root, modelUrl, model, environments, vars = "{}", count = ""] = process.argv.slice(2);
if (!root || !modelUrl || !model || environments === undefined) throw new Error("usage: host.ts <root> <modelUrl> <model> <env,env> [<vars JSON>]");

function reply(message: HostReply): void {
  process.send!(message);
}

const emulation = (await import(pathToFileURL(path.join(root, "local", "emulation.ts")).href)) as Emulation;
const local = await emulation.startLocal({
  port: 0,
  persist: false,
  environments: environments.split(",").filter(Boolean),
  modelUrl,
  model,
  // A checkout that checks tokens gets this one; an older one, open without tokens, ignores the option and the header.
  apiTokens: `bench:${BENCH_TOKEN}:admin`,
  vars: JSON.parse(vars) as Record<string, Record<string, string>>,
  ...(count === "count" ? { countOperations: true } : {}),
});

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  void local.stop().then(() => process.exit(0));
}

process.on("message", (message: HostRequest) => {
  if (message.type === "cpu") {
    const { user, system } = process.cpuUsage();
    reply({ type: "cpu", id: message.id, micros: user + system });
  } else if (message.type === "counts") {
    if (!local.counts) throw new Error("this checkout's emulation does not count operations (started without countOperations?)");
    void local.counts(message.reset).then((counts) => reply({ type: "counts", id: message.id, counts }));
  } else if (message.type === "stop") stop();
});
// The parent's exit closes the IPC channel: stop the emulation with it rather than leave a workerd behind.
process.on("disconnect", stop);
// The token to send: this run's, or one an older checkout made up itself.
reply({ type: "ready", url: local.url, token: local.token ?? BENCH_TOKEN });
