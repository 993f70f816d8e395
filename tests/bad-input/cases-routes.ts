// Route by route: wrong types, missing and unknown fields, huge arrays, tool arguments that miss their schema, bad queries,
// and JSON Lines uploads that are broken in every way a file can be.
import type { BadInput, CorpusTargets } from "./types.js";

const JSON_TYPE = { "content-type": "application/json" };
const JSONL_TYPE = { "content-type": "application/x-ndjson" };
const GOOD_ROW = { responses_create_params: { input: "hi" } };

const post = (name: string, path: string, body: unknown, expect: Pick<BadInput, "status" | "code"> = {}): BadInput => ({
  name,
  method: "POST",
  path,
  headers: JSON_TYPE,
  body: typeof body === "string" ? body : JSON.stringify(body),
  ...expect,
});

function runCases(t: CorpusTargets): BadInput[] {
  const run = (name: string, body: unknown, query = "", expect: Pick<BadInput, "status" | "code"> = {}) =>
    post(`run: ${name}`, `/run?environment=${t.simple.name}${query}`, body, expect);
  return [
    run("an empty object", {}),
    run("responses_create_params missing", { expected_answer: "x" }),
    run("responses_create_params a string", { responses_create_params: "hi" }),
    run("input a number", { responses_create_params: { input: 5 } }),
    run("input an object", { responses_create_params: { input: { role: "user" } } }),
    run("an item with an unknown role", { responses_create_params: { input: [{ role: "robot", content: "x" }] } }),
    run("an item without content", { responses_create_params: { input: [{ role: "user" }] } }),
    run("an item of an unknown type", { responses_create_params: { input: [{ type: "teleport", content: "x" }] } }),
    run("tools not an array", { responses_create_params: { input: "hi", tools: { name: "x" } } }),
    run("a tool without a name", { responses_create_params: { input: "hi", tools: [{ type: "function", parameters: {} }] } }),
    run("temperature a string", { responses_create_params: { input: "hi", temperature: "hot" } }),
    run("max_output_tokens negative", { responses_create_params: { input: "hi", max_output_tokens: -5 } }),
    run("agent_ref a string", { ...GOOD_ROW, agent_ref: "agent" }),
    run("agent_ref.name a number", { ...GOOD_ROW, agent_ref: { type: "responses_api_agents", name: 7 } }),
    run("200,000 bad items (issues capped)", { responses_create_params: { input: Array.from({ length: 200_000 }, () => ({ role: 1 })) } }),
    run("max_steps 0", GOOD_ROW, "&max_steps=0", { status: 400 }),
    run("max_steps negative", GOOD_ROW, "&max_steps=-3", { status: 400 }),
    run("max_steps not a number", GOOD_ROW, "&max_steps=many", { status: 400 }),
    run("an unknown query parameter", GOOD_ROW, "&temperature=2", { status: 400 }),
    post("run: an unknown environment", "/run?environment=no_such_environment", GOOD_ROW, { status: 404, code: "unknown_environment" }),
    post(
      "run: an agent_ref naming no environment",
      "/run",
      { ...GOOD_ROW, agent_ref: { type: "responses_api_agents", name: "nobody_simple_agent" } },
      { code: "unknown_environment" },
    ),
    { ...post("run: an environment header naming none", "/run", GOOD_ROW, { status: 404 }), headers: { ...JSON_TYPE, "x-edgegym-environment": "../../etc" } },
  ];
}

function jsonlCases(t: CorpusTargets): BadInput[] {
  const jobs = (name: string, body: string | Uint8Array, query: string, expect: Pick<BadInput, "status" | "code"> = {}, headers = JSONL_TYPE): BadInput => ({
    name: `jobs (JSONL): ${name}`,
    method: "POST",
    path: `/v1/jobs${query}`,
    headers,
    body,
    ...expect,
  });
  const env = `?environment=${t.simple.name}`;
  const good = JSON.stringify(GOOD_ROW);
  const badUtf8 = new Uint8Array([...Buffer.from('{"responses_create_params": {"input": "', "utf8"), 0xfe, 0xff, ...Buffer.from('"}}\n', "utf8")]);
  return [
    jobs("every line invalid JSON", "{oops\n{nope\n", env, { status: 400, code: "invalid_rows" }),
    jobs("a truncated last line", `${good}\n{"responses_create_params": {"inp`, env, { status: 400, code: "invalid_rows" }),
    jobs("a line of the wrong shape", `${good}\n{"responses_create_params": {"input": 5}}\n`, env, { status: 400, code: "invalid_rows" }),
    jobs("a line that is an array", `${good}\n[1, 2]\n`, env, { status: 400, code: "invalid_rows" }),
    jobs("a line nested 10,000 deep", `${good}\n${"[".repeat(10_000)}${"]".repeat(10_000)}\n`, env, { status: 400, code: "invalid_rows" }),
    jobs("a line that is not UTF-8", badUtf8, env, { status: 400, code: "invalid_rows" }),
    jobs("a 10 MB line", `{"responses_create_params": {"input": "${"y".repeat(10_000_000)}"}}\n`, env, { status: 413, code: "line_too_long" }),
    jobs("a 10 MB line, skip_invalid, nothing else", `{"responses_create_params": {"input": "${"y".repeat(10_000_000)}"}}\n`, `${env}&skip_invalid=true`, {
      status: 400,
    }),
    jobs("only blank lines", "\n\n  \n", env, { status: 400, code: "no_rows" }),
    jobs("an empty body", "", env, { status: 400 }),
    jobs("no environment and no agent_ref", `${good}\n`, "", { status: 400, code: "invalid_rows" }),
    jobs("an agent_ref naming no environment", `${JSON.stringify({ ...GOOD_ROW, agent_ref: { name: "ghost_simple_agent" } })}\n`, "", { status: 400 }),
    jobs("an unknown environment", `${good}\n`, "?environment=ghost", { status: 404, code: "unknown_environment" }),
    jobs("num_repeats 0", `${good}\n`, `${env}&num_repeats=0`, { status: 400 }),
    jobs("num_repeats negative", `${good}\n`, `${env}&num_repeats=-2`, { status: 400 }),
    jobs("num_repeats a word", `${good}\n`, `${env}&num_repeats=eight`, { status: 400 }),
    jobs("num_repeats a billion", `${good}\n`, `${env}&num_repeats=1000000000`, { status: 400 }),
    jobs("num_repeats fractional", `${good}\n`, `${env}&num_repeats=1.5`, { status: 400 }),
    jobs("limit 0", `${good}\n`, `${env}&limit=0`, { status: 400 }),
    jobs("skip_invalid maybe", `${good}\n`, `${env}&skip_invalid=maybe`, { status: 400 }),
    jobs("a misspelt option", `${good}\n`, `${env}&num_repeat=4`, { status: 400 }),
    jobs("responses_create_params query not JSON", `${good}\n`, `${env}&responses_create_params=%7Bnope`, { status: 400 }),
    jobs("responses_create_params query an array", `${good}\n`, `${env}&responses_create_params=%5B1%5D`, { status: 400 }),
    jobs("responses_create_params query with a bad temperature", `${good}\n`, `${env}&responses_create_params=${encodeURIComponent('{"temperature":"x"}')}`, {
      status: 400,
    }),
    jobs("text/csv", "a,b\n1,2\n", env, { status: 415 }, { "content-type": "text/csv" }),
    jobs("a form body", "a=1", env, { status: 415 }, { "content-type": "application/x-www-form-urlencoded" }),
    jobs("XML", "<rows/>", env, { status: 415 }, { "content-type": "application/xml" }),
  ];
}

function jobJsonCases(t: CorpusTargets): BadInput[] {
  const jobs = (name: string, body: unknown, expect: Pick<BadInput, "status" | "code"> = {}) => post(`jobs (JSON): ${name}`, "/v1/jobs", body, expect);
  return [
    jobs("neither rows nor rows_key", { environment: t.simple.name }, { status: 400 }),
    jobs("both rows and rows_key", { environment: t.simple.name, rows: [GOOD_ROW], rows_key: "x" }, { status: 400 }),
    jobs("rows not an array", { environment: t.simple.name, rows: GOOD_ROW }, { status: 400 }),
    jobs("rows of numbers", { environment: t.simple.name, rows: [1, 2, 3] }, { status: 400, code: "invalid_rows" }),
    jobs("an empty rows list", { environment: t.simple.name, rows: [] }, { status: 400, code: "no_rows" }),
    jobs("rows_key naming no object", { environment: t.simple.name, rows_key: "nowhere/rows.jsonl" }, { status: 404 }),
    jobs("rows_key empty", { environment: t.simple.name, rows_key: "" }, { status: 400 }),
    jobs("an unknown field", { environment: t.simple.name, rows: [GOOD_ROW], priority: "high" }, { status: 400 }),
    jobs("num_repeats a word", { environment: t.simple.name, rows: [GOOD_ROW], num_repeats: "many" }, { status: 400 }),
    jobs("num_repeats an object", { environment: t.simple.name, rows: [GOOD_ROW], num_repeats: { n: 2 } }, { status: 400 }),
    jobs("environment a number", { environment: 3, rows: [GOOD_ROW] }, { status: 400 }),
    jobs("environment unknown", { environment: "ghost", rows: [GOOD_ROW] }, { status: 404 }),
    jobs("responses_create_params a string", { environment: t.simple.name, rows: [GOOD_ROW], responses_create_params: "x" }, { status: 400 }),
    jobs(
      "100,000 rows that are all wrong",
      { environment: t.simple.name, rows: Array.from({ length: 100_000 }, () => ({ responses_create_params: 0 })) },
      { status: 400 },
    ),
  ];
}

function environmentCases(t: CorpusTargets): BadInput[] {
  const env = (name: string, route: string) => `/v1/environments/${name}/${route}`;
  const tool = (name: string, args: unknown, expect: Pick<BadInput, "status" | "code"> = { status: 422, code: "invalid_tool_arguments" }) =>
    post(`tool arguments: ${name}`, env(t.simple.name, t.simple.tool), args, expect);
  const counter = (name: string, args: unknown) =>
    post(`stateful tool arguments: ${name}`, env(t.stateful.name, t.stateful.tool), args, { status: 422, code: "invalid_tool_arguments" });
  const metrics = (name: string, body: unknown) => post(`aggregate_metrics: ${name}`, env(t.simple.name, "aggregate_metrics"), body, { status: 400 });
  const vr = (task: unknown, rollout: unknown) => ({ _ng_task_index: task, _ng_rollout_index: rollout, reward: 1 });
  return [
    tool("a required argument missing", {}),
    tool("an argument of the wrong type", { city: 5 }),
    tool("an argument that is an array", { city: ["a", "b"] }),
    tool("an argument that is null", { city: null }),
    tool("a 5-million-character argument", { city: "z".repeat(5_000_000) }, { status: 413, code: "string_too_long" }),
    counter("a count that is a string", { count: "one" }),
    counter("a count that is fractional", { count: 1.5 }),
    counter("a count that is missing", {}),
    post("tool: an unknown tool", env(t.simple.name, "no_such_tool"), {}, { status: 404, code: "unknown_tool" }),
    post("tool: an unknown tool on a stateful environment", env(t.stateful.name, "teleport"), {}, { status: 404, code: "unknown_tool" }),
    post("seed_session: a task field of the wrong type", env(t.stateful.name, "seed_session"), { ...GOOD_ROW, initial_count: "ten" }, { status: 400 }),
    post("seed_session: a second task field of the wrong type", env(t.stateful.name, "seed_session"), { ...GOOD_ROW, expected_count: [3] }, { status: 400 }),
    post("verify: no response", env(t.simple.name, "verify"), GOOD_ROW, { status: 400 }),
    post("verify: a response that is a string", env(t.simple.name, "verify"), { ...GOOD_ROW, response: "yes" }, { status: 400 }),
    post("verify: a response without output", env(t.simple.name, "verify"), { ...GOOD_ROW, response: { id: "r" } }, { status: 400 }),
    post("verify on a gymnasium environment", env(t.gymnasium, "verify"), GOOD_ROW, { code: "use_reset_step" }),
    post("seed_session on a gymnasium environment", env(t.gymnasium, "seed_session"), GOOD_ROW, { code: "use_reset_step" }),
    post("reset: follow_ups of the wrong type", env(t.gymnasium, "reset"), { ...GOOD_ROW, follow_ups: "later" }, { status: 400 }),
    post("step: no response", env(t.gymnasium, "step"), GOOD_ROW, { status: 400 }),
    post("step: a response that is a number", env(t.gymnasium, "step"), { ...GOOD_ROW, response: 1 }, { status: 400 }),
    metrics("verify_responses missing", {}),
    metrics("verify_responses an object", { verify_responses: { a: 1 } }),
    metrics("a verify response that is a number", { verify_responses: [1] }),
    metrics("duplicate (task, rollout) pairs", { verify_responses: [vr(0, 0), vr(0, 0)] }),
    metrics("duplicates through absent indices", { verify_responses: [{ reward: 1 }, { reward: 0 }] }),
    metrics("a fractional task index", { verify_responses: [vr(0.5, 0)] }),
    metrics("a task index that is a string", { verify_responses: [vr("0", 0)] }),
    metrics("a rollout index that is a string", { verify_responses: [vr(0, "first")] }),
    metrics("a negative task index", { verify_responses: [vr(-1, 0)] }),
    metrics("a task index that is null", { verify_responses: [vr(null, 0)] }),
  ];
}

function modelCases(): BadInput[] {
  const responses = (name: string, body: unknown) => post(`responses: ${name}`, "/v1/responses", body, { status: 400 });
  const chat = (name: string, body: unknown) => post(`chat completions: ${name}`, "/v1/chat/completions", body, { status: 400 });
  return [
    responses("no input", { model: "m" }),
    responses("input a number", { input: 3 }),
    responses("an item of an unknown role", { input: [{ role: "wizard", content: "x" }] }),
    responses("tools an object", { input: "hi", tools: {} }),
    responses("stream a string", { input: "hi", stream: "yes" }),
    responses("temperature an array", { input: "hi", temperature: [1] }),
    responses("an item kind vLLM cannot take", { input: [{ type: "file_search_call", id: "x", status: "completed", queries: [] }] }),
    chat("no messages", { model: "m" }),
    chat("an empty messages list", { messages: [] }),
    chat("messages an object", { messages: { role: "user" } }),
    chat("a message without a role", { messages: [{ content: "hi" }] }),
    chat("stream a number", { messages: [{ role: "user", content: "hi" }], stream: 1 }),
  ];
}

export function routeCases(targets: CorpusTargets): BadInput[] {
  return [...runCases(targets), ...jsonlCases(targets), ...jobJsonCases(targets), ...environmentCases(targets), ...modelCases()];
}
