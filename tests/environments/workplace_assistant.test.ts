// workplace_assistant in workerd: parity with NeMo Gym's recorded rollouts, sessions in Durable Objects, verify over HTTP.
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { topology } from "../../infra/topology.js";
import { buildWorkers } from "../../local/build.js";
import { type Local, workerOptions } from "../../local/emulation.js";
import { fixtureRollouts, fixtureRows } from "../helpers/fixtures.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";
import { originalTables } from "../helpers/workplace_assistant.js";

const NAME = "workplace_assistant";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const url = (route: string) => `${local.url}/v1/environments/${NAME}/${route}`;
const ROWS = fixtureRows(NAME);

/**
 * A seeded session, its id the one the seed answers in x-session-id: `call` answers the tool's `output`, `raw` the
 * response text as the agent hands it to the model.
 */
async function newSession(row = ROWS[0]!) {
  const seeded = await postJson(url("seed_session"), row);
  expect(seeded.status).toBe(200);
  const headers = { "x-session-id": seeded.headers.get("x-session-id")! };
  const raw = async (tool: string, args: string) =>
    (await gatewayFetch(url(tool), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: args })).text();
  return {
    headers,
    raw,
    call: async (tool: string, args: Record<string, unknown> = {}) => {
      const answer = await postJson(url(tool), args, headers);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.output;
    },
  };
}

type Item = { type: string; name?: string; arguments?: string; call_id?: string; output?: string };
const call = (name: string, args: Record<string, unknown> | string) => ({
  type: "function_call",
  call_id: `call_${name}_${Math.random()}`,
  name,
  arguments: typeof args === "string" ? args : JSON.stringify(args),
});
const responseOf = (output: unknown[]) => ({
  id: "resp_test",
  object: "response",
  created_at: 0,
  model: "m",
  output,
  parallel_tool_calls: false,
  tool_choice: "auto",
  tools: [],
});
const expected = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/**
 * NeMo Gym's recorded rollouts keep neither their rows' task fields nor rows among example.jsonl, so each ground truth is
 * rebuilt here as WorkBench's query generator (github.com/olly-styles/WorkBench, where these request templates come from)
 * writes it, from the same tables: the answer is the calls that carry the request out.
 */
function groundTruthFor(request: string): { ground_truth: { name: string; arguments: string }[]; category: string } {
  const tables = originalTables();
  const crm = tables.customer_relationship_manager_data.rows;
  if (request === "Create a bar chart of total visits since November 30") {
    // "since {date}": from that date to yesterday (2023-11-29), WorkBench's time_max for every "since" plot.
    const args = { time_min: "2023-11-30", time_max: "2023-11-29", value_to_plot: "total_visits", plot_type: "bar" };
    return { ground_truth: [expected("analytics_create_plot", args)], category: "workplace_assistant_analytics" };
  }
  if (request.startsWith("We need to move all customers that haven't responded to a proposal for the consulting product in 3 weeks")) {
    // move_unresponsive_customers_to_lost_logic: status Proposal, that product, last contact before now - 3 weeks.
    const due = crm.filter((c) => c.status === "Proposal" && c.product_interest === "Consulting" && String(c.last_contact_date) < "2023-11-09 23:59:00");
    const calls = due.map((c) => expected("customer_relationship_manager_update_customer", { customer_id: c.customer_id, field: "status", new_value: "Lost" }));
    return { ground_truth: calls, category: "workplace_assistant_customer_relationship_manager" };
  }
  if (request === "Delete Casey Wilson from the crm") {
    const [casey] = crm.filter((c) => c.customer_name === "Casey Wilson");
    return {
      ground_truth: [expected("customer_relationship_manager_delete_customer", { customer_id: casey!.customer_id })],
      category: "workplace_assistant_customer_relationship_manager",
    };
  }
  if (request === "Add Dakota Thomas as a new lead in the crm and assign them to Nadia") {
    const nadia = tables.company_directory.rows.map((r) => String(r.email_address)).find((address) => address.startsWith("nadia."));
    const args = { customer_name: "Dakota Thomas", assigned_to_email: nadia, status: "Lead" };
    return { ground_truth: [expected("customer_relationship_manager_add_customer", args)], category: "workplace_assistant_customer_relationship_manager" };
  }
  if (request === "Delete my last email from kofi") {
    // WorkBench's own answer for this very query is email.delete_email(email_id="00000259"): the newest email from kofi.
    const fromKofi = tables.emails.rows.filter((e) => e["inbox/outbox"] === "inbox" && String(e["sender/recipient"]).startsWith("kofi."));
    const last = fromKofi.sort((a, b) => String(b.sent_datetime).localeCompare(String(a.sent_datetime)))[0]!;
    expect(last.email_id).toBe("00000259");
    return { ground_truth: [expected("email_delete_email", { email_id: last.email_id })], category: "workplace_assistant_email" };
  }
  throw new Error(`no ground truth for ${request}`);
}

const requestOf = (record: Record<string, unknown>) => {
  const input = (record.responses_create_params as { input: { role: string; content: string }[] }).input;
  return input.find((m) => m.role === "user")!.content;
};

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  const records = fixtureRollouts(NAME);
  it("covers the five records: one scored 0, four scored 1", () => {
    expect(records.map((r) => r.reward)).toEqual([0, 1, 1, 1, 1]);
  });

  it.each(records.map((record, i) => [i, requestOf(record), record] as const))("recorded rollout %i (%s): NeMo Gym's reward", async (i, request, record) => {
    const { reward, ...rest } = record;
    const answer = await postJson(url("verify"), { ...rest, ...groundTruthFor(request), id: i, environment_name: NAME });
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(reward);
    expect(answer.body.id).toBe(i);
  });

  it.each(records.map((record, i) => [i, record] as const))(
    "recorded rollout %i: every tool answers, byte for byte, what NeMo Gym answered",
    async (_i, record) => {
      const output = (record.response as { output: Item[] }).output;
      const { raw } = await newSession();
      for (const item of output.filter((o) => o.type === "function_call")) {
        const recorded = output.find((o) => o.type === "function_call_output" && o.call_id === item.call_id)!;
        expect(await raw(item.name!, item.arguments!)).toBe(recorded.output);
      }
    },
  );
});

describe("the example rows", () => {
  it.each(ROWS.map((row) => [row.id, row] as const))("row %s: its ground truth, made by the model, scores 1 and runs in the session", async (_id, row) => {
    const truth = row.ground_truth as { name: string; arguments: string }[];
    const { call: use } = await newSession(row);
    for (const step of truth) expect(await use(step.name, JSON.parse(step.arguments))).toMatch(/successfully/);
    const calls = truth.map((step) => call(step.name, step.arguments));
    const right = await postJson(url("verify"), { ...row, response: responseOf(calls) });
    expect(right.body.reward).toBe(1);
    // Doing nothing, or only part of it, changes less than the task asks.
    expect((await postJson(url("verify"), { ...row, response: responseOf([]) })).body.reward).toBe(0);
    if (calls.length > 1) expect((await postJson(url("verify"), { ...row, response: responseOf(calls.slice(0, -1)) })).body.reward).toBe(0);
  });

  it("GET /tools: NeMo Gym's 27 tools, as each row offers them", async () => {
    const listed = (await (await gatewayFetch(url("tools"))).json()) as { stateful: boolean; tools: { strict: boolean }[] };
    expect(listed.stateful).toBe(true);
    const offered = (ROWS[0]!.responses_create_params as { tools: { strict: boolean }[] }).tools;
    expect(listed.tools.map(({ strict: _s, ...tool }) => tool)).toEqual(offered.map(({ strict: _s, ...tool }) => tool));
  });

  it("a verify request without the task fields is refused, naming them", async () => {
    const { ground_truth: _g, id: _i, ...row } = ROWS[0]!;
    const answer = await postJson(url("verify"), { ...row, response: responseOf([]) });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues.map((issue: { path: string[] }) => issue.path[0]).sort()).toEqual(["ground_truth", "id"]);
  });
});

describe("a rollout through the agent (the simulator as the model)", () => {
  it("runs each example row to a scored record: tool answers, right or wrong, reach the model as outputs", async () => {
    for (const row of ROWS) {
      const answer = await postJson(`${local.url}/run?environment=${NAME}`, row);
      expect(answer.status).toBe(200);
      expect([0, 1]).toContain(answer.body.reward);
      expect(answer.body.ground_truth).toEqual(row.ground_truth);
      const outputs = (answer.body.response.output as Item[]).filter((o) => o.type === "function_call_output");
      expect(outputs.length).toBeGreaterThan(0);
      for (const o of outputs) expect(JSON.parse(o.output!)).toHaveProperty("output");
    }
  });
});

describe("sessions: each its own tables, in its own Durable Object", () => {
  const status = async (use: (tool: string, args: Record<string, unknown>) => Promise<unknown>) =>
    ((await use("customer_relationship_manager_search_customers", { customer_name: "Casey Wilson" })) as { customers: { status: string }[] }).customers[0]!
      .status;

  it("two sessions writing the same row each keep their own value", async () => {
    const [a, b] = await Promise.all([newSession(), newSession()]);
    const before = await status(a.call);
    await Promise.all([
      a.call("customer_relationship_manager_update_customer", { customer_id: "00000014", field: "status", new_value: "Won" }),
      b.call("customer_relationship_manager_update_customer", { customer_id: "00000014", field: "status", new_value: "Lost" }),
    ]);
    expect([await status(a.call), await status(b.call)]).toEqual(["Won", "Lost"]);
    // A third session starts from the original tables.
    expect(await status((await newSession()).call)).toBe(before);
  });

  it("writes are seen by the session's later calls, in order", async () => {
    const { call: use } = await newSession();
    expect(await use("email_delete_email", { email_id: "00000259" })).toBe("Email deleted successfully.");
    expect(await use("email_get_email_information_by_id", { email_id: "00000259", field: "subject" })).toBe("Email not found.");
    expect(await use("email_send_email", { recipient: "Kofi.Mensah@atlas.com", subject: "Hi", body: "Hello" })).toBe("Email sent successfully.");
    expect(await use("email_get_email_information_by_id", { email_id: "500", field: "sender/recipient" })).toEqual({
      "sender/recipient": "kofi.mensah@atlas.com",
    });
    expect(await use("email_send_email", { recipient: "a@b.co", subject: "Again", body: "Hello" })).toBe("Email sent successfully.");
    expect(await use("email_get_email_information_by_id", { email_id: "501", field: "sent_datetime" })).toEqual({ sent_datetime: "2023-11-30 23:59:00" });
  });

  it("seeding again starts the session over: a new id (header and cookie) on the original tables", async () => {
    const { call: use, headers } = await newSession();
    await use("email_delete_email", { email_id: "00000259" });
    // Since session ids are minted (HMAC), a seed always opens a new session, whatever id it carries; a caller that
    // follows the answer's header or cookie (as NeMo Gym's client follows the cookie) is in the new one from then on.
    const again = await postJson(url("seed_session"), ROWS[0], headers);
    expect(again.status).toBe(200);
    const renewed = { "x-session-id": again.headers.get("x-session-id")! };
    expect(renewed["x-session-id"]).not.toBe(headers["x-session-id"]);
    expect(again.headers.get("set-cookie")).toContain(renewed["x-session-id"]);
    const fresh = await postJson(url("email_get_email_information_by_id"), { email_id: "00000259", field: "email_id" }, renewed);
    expect(fresh.body.output).toEqual({ email_id: "00000259" });
    // The earlier session keeps its own tables.
    expect(await use("email_get_email_information_by_id", { email_id: "00000259", field: "email_id" })).toBe("Email not found.");
  });

  it("a tool call before /seed_session answers NeMo Gym's 400; an id the caller made up is refused (404)", async () => {
    // No session carried: the call opens one, unseeded, as NeMo Gym's session middleware would.
    const answer = await postJson(url("email_delete_email"), { email_id: "00000259" });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe("Session not initialized. Please call seed_session first.");
    // Before HMAC-bound session ids, a made-up id opened an unseeded session too (400 above); now it is no session.
    const madeUp = await postJson(url("email_delete_email"), { email_id: "00000259" }, { "x-session-id": crypto.randomUUID() });
    expect(madeUp.status).toBe(404);
    expect(madeUp.body.error.code).toBe("unknown_session");
  });

  it("a body that is not a JSON object is refused with 422, and the session goes on", async () => {
    const { headers, call: use } = await newSession();
    expect((await postJson(url("email_delete_email"), [], headers)).status).toBe(422);
    expect(await use("email_delete_email", { email_id: "00000259" })).toBe("Email deleted successfully.");
  });
});

describe("verify replays a call sequence that fails half-way", () => {
  const row = ROWS[2]!; // three update_customer calls reassigning Akira's software leads to Raj
  const truth = row.ground_truth as { name: string; arguments: string }[];
  const [first, second, third] = truth.map((step) => call(step.name, step.arguments));

  it.each([
    ["an unknown tool", call("crm_reassign", { customer_id: "00000080" })],
    ["arguments that are not JSON", call("customer_relationship_manager_update_customer", "{customer_id: 00000080")],
    ["an unexpected argument", call("customer_relationship_manager_update_customer", { customer_id: "00000080", field: "status", new_value: "Won", why: "x" })],
    ["an error inside the tool", call("customer_relationship_manager_search_customers", { last_contact_date_min: 5 })],
    ["a tool's own refusal", call("customer_relationship_manager_update_customer", { customer_id: "00000080", field: "status", new_value: "Closed" })],
  ])("%s in the middle is skipped, the calls after it still count: reward 1", async (_what, failing) => {
    const answer = await postJson(url("verify"), { ...row, response: responseOf([first, failing, second, third]) });
    expect(answer.body.reward).toBe(1);
  });

  it("a sequence that stops at the failure scores 0", async () => {
    const failing = call("customer_relationship_manager_update_customer", "not json");
    expect((await postJson(url("verify"), { ...row, response: responseOf([first, failing]) })).body.reward).toBe(0);
  });

  it("a ground truth that fails half-way is replayed the same way", async () => {
    const brokenTruth = [truth[0], { name: "no_such_tool", arguments: "{}" }, truth[1], truth[2]];
    const answer = await postJson(url("verify"), { ...row, ground_truth: brokenTruth, response: responseOf([first, second, third]) });
    expect(answer.body.reward).toBe(1);
  });
});

describe("a session's tables are gone once it expires", () => {
  it("the session's alarm (SESSION_TTL_SECONDS after its last call) deletes them with the rest of its storage", { timeout: 30_000 }, async () => {
    // The environment's Worker alone, with a one-second session lifetime.
    const spec = topology({ environments: [NAME], modelBaseUrl: "http://model.invalid/v1", modelName: "m" }).find((s) => s.environment === NAME)!;
    const bundle = (await buildWorkers([spec])).get(spec.name)!;
    const worker = workerOptions({ ...spec, services: {}, vars: { SESSION_TTL_SECONDS: "1" } }, bundle, {
      SESSION_SECRET: "a-test-secret-of-at-least-32-characters",
    });
    const miniflare = new Miniflare({ ...worker, cf: false });
    try {
      let session: Record<string, string> = {};
      const post = async (route: string, body: unknown) => {
        const response = await miniflare.dispatchFetch(`http://env/${route}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...session },
          body: JSON.stringify(body),
        });
        return {
          status: response.status,
          session: response.headers.get("x-session-id"),
          body: (await response.json()) as { output?: unknown; error?: { message: string; code?: string } },
        };
      };
      const seeded = await post("seed_session", ROWS[0]);
      expect(seeded.status).toBe(200);
      session = { "x-session-id": seeded.session! };
      expect((await post("email_delete_email", { email_id: "00000259" })).body.output).toBe("Email deleted successfully.");
      // Every call pushes the deadline a second out again, so look only after waiting longer than that.
      let after = { status: 200, body: {} as { output?: unknown; error?: { message: string; code?: string } } };
      for (let tries = 0; after.status === 200 && tries < 5; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        after = await post("email_search_emails", { query: "kofi" });
      }
      // The alarm deleted all the session's storage, its open mark with its tables: the call is told the session expired
      // (410, since minted session ids; before, an unseeded session answered NeMo Gym's 400), and nothing is run afresh.
      expect(after.status).toBe(410);
      expect(after.body.error?.code).toBe("session_expired");
      expect((await post("email_delete_email", { email_id: "00000259" })).status).toBe(410);
    } finally {
      await miniflare.dispose();
    }
  });
});
