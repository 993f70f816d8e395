// What the documented commands share while the suite runs: the clone, the `npm run dev` gateway and the simulator each
// started once on first use, the files the README names (made from the bundled example data) and the ids they produce.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Background, background, freshEnv, makeClone, type Result, removeClone, sh, write } from "./clone.js";

export interface Gateway {
  url: string;
  token: string;
  /** What `npm run dev` printed before it was ready. */
  banner: string;
}

export class DocContext {
  readonly dir = makeClone();
  /** Values documented commands produce for later ones (a job id, …). */
  readonly vars = new Map<string, string>();
  private readonly started: Background[] = [];
  private gatewayStarted?: Promise<Gateway>;
  private simulatorStarted?: Promise<string>;

  /** The suite's gateway: `npm run dev` in the clone (on a free port, not 8787), with the dev token it made up and saved. */
  gateway(): Promise<Gateway> {
    this.gatewayStarted ??= (async () => {
      const dev = this.background("npm run dev -- --port 0");
      const [, url] = await dev.waitFor(/edgegym gateway: (\S+)/);
      const [, token] = await dev.waitFor(/dev token: (\S+)/);
      await dev.waitFor(/\nlogs: /);
      return { url: url ?? "", token: token ?? "", banner: dev.output() };
    })();
    return this.gatewayStarted;
  }

  /** The suite's model: `npm run simulator` (the README's command, on a free port), its OpenAI base URL. */
  simulator(): Promise<string> {
    this.simulatorStarted ??= (async () => {
      const simulator = this.background("npm run simulator -- --port 0 --latency-ms 50");
      const [, base] = await simulator.waitFor(/OpenAI base URL (\S+)\)/);
      return base ?? "";
    })();
    return this.simulatorStarted;
  }

  /** Runs a command line as typed at the clone's root, in a fresh shell plus `env`. */
  run(command: string, env: Record<string, string> = {}, timeoutMs?: number): Promise<Result> {
    return sh(command, this.dir, this.env(env), timeoutMs);
  }

  /** A fresh shell's variables; npm kept off the registry (loopback only) and its npx cache inside the clone. */
  private env(extra: Record<string, string>): NodeJS.ProcessEnv {
    return freshEnv({ npm_config_offline: "true", npm_config_cache: path.join(this.dir, ".npm-cache"), ...extra });
  }

  /** Starts a command in the background; it is stopped when the suite ends, if not before. */
  background(command: string, env: Record<string, string> = {}): Background {
    const started = background(command, this.dir, this.env(env));
    this.started.push(started);
    return started;
  }

  /** A file of the bundled example data, as the README's placeholder file names it. */
  example(environment: string): string {
    return readFileSync(path.join(this.dir, "environments", environment, "data", "example.jsonl"), "utf8");
  }

  /** The input files the README's commands name, made from the bundled examples. */
  writeInputs(): void {
    const strings = this.example("string_match").trimEnd().split("\n");
    const mcqa = this.example("mcqa");
    write(this.dir, "data/mcqa.jsonl", mcqa);
    // Seven rows, the seventh without its expected_answer: the bad row the README's validate example reports.
    const seventh = JSON.parse(strings[0] ?? "{}") as Record<string, unknown>;
    delete seventh.expected_answer;
    write(this.dir, "data/strings.jsonl", `${[...strings, strings[1], JSON.stringify(seventh)].join("\n")}\n`);
    write(this.dir, "data/strings-val.jsonl", `${strings.slice(0, 2).join("\n")}\n`);
    // NeMo Gym rows name their agent (grpo_batch.py without --environment routes by it).
    const agentRef = { type: "responses_api_agents", name: "example_multi_step_simple_agent" };
    const rows = this.example("example_multi_step").trimEnd().split("\n");
    write(this.dir, "rows.jsonl", `${rows.map((row) => JSON.stringify({ ...JSON.parse(row), agent_ref: agentRef })).join("\n")}\n`);
    write(this.dir, "row.json", this.example("example_multi_step").split("\n")[0] ?? "");
    write(
      this.dir,
      "raw.jsonl",
      '{"question": "What is the capital of France?", "expected_answer": "Paris"}\n{"question": "2 + 2?", "expected_answer": "4"}\n',
    );
    write(this.dir, "prompt.yaml", 'system: "Answer in \\\\boxed{{}}."\nuser: "Question: {question}"\n');
  }

  /** Makes data/strings.jsonl valid again (the README's step 1 is followed by fixing the file). */
  fixStrings(): void {
    const strings = this.example("string_match").trimEnd().split("\n");
    write(this.dir, "data/strings.jsonl", `${strings.join("\n")}\n`);
  }

  async close(): Promise<void> {
    for (const process of this.started.reverse()) await process.stop();
    removeClone(this.dir);
  }
}
