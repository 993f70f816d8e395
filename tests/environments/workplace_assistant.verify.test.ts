// workplace_assistant's verify in Node: NeMo Gym's replay and DataFrame.equals semantics, and the pandas readings tools rely on.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED_FILE, generatedSource, readCsvFiles } from "../../environments/workplace_assistant/generate-tables.js";
import { paginate } from "../../environments/workplace_assistant/pagination.js";
import { PyError } from "../../environments/workplace_assistant/python.js";
import { compareTimestamps, dateOf, toTimestamp } from "../../environments/workplace_assistant/timestamp.js";
import { type Call, differingTables, replay, stateMatchReward } from "../../environments/workplace_assistant/verify.js";
import { originalTables } from "../helpers/workplace_assistant.js";

const call = (name: string, args: Record<string, unknown> | string) => ({ name, arguments: typeof args === "string" ? args : JSON.stringify(args) });
const reward = (predicted: Call[], truth: Call[] | string) => stateMatchReward(predicted, truth, originalTables()).reward;
const send = (subject: string) => call("email_send_email", { recipient: "aisha.chen@atlas.com", subject, body: "Hello" });
const event = (duration: unknown) =>
  call("calendar_create_event", { event_name: "Sync", participant_email: "raj.patel@atlas.com", event_start: "2023-12-04 10:00:00", duration });

describe("the comparison (NeMo Gym's convert_strs_to_lowercase, then DataFrame.equals)", () => {
  it("text compares without case", () => {
    expect(reward([send("HELLO THERE")], [send("hello there")])).toBe(1);
  });
  it("but status, list_name and board keep their case", () => {
    const add = (status: string) =>
      call("customer_relationship_manager_add_customer", { customer_name: "Dakota Thomas", assigned_to_email: "nadia.moreau@atlas.com", status });
    expect(reward([add("lead")], [add("Lead")])).toBe(0);
    expect(reward([add("Lead")], [add("Lead")])).toBe(1);
  });
  it("a number where text was expected is NaN, unlike the text", () => {
    expect(reward([event(30)], [event("30")])).toBe(0);
    expect(reward([event("30")], [event("30")])).toBe(1);
  });
  it("so a number and a missing value match (both NaN)", () => {
    const add = (extra: Record<string, unknown>) =>
      call("customer_relationship_manager_add_customer", {
        customer_name: "Dakota Thomas",
        assigned_to_email: "nadia.moreau@atlas.com",
        status: "Lead",
        ...extra,
      });
    expect(reward([add({ customer_phone: 5551234 })], [add({})])).toBe(1);
  });
  it("the index labels count: an email deleted before a send renumbers, after it leaves a gap", () => {
    const remove = call("email_delete_email", { email_id: "00000259" });
    // The same rows either way, but NeMo Gym's concat(ignore_index=True) relabels only the rows already there.
    expect(reward([remove, send("Hi")], [send("Hi"), remove])).toBe(0);
    expect(differingTables(replay([remove, send("Hi")], originalTables()), replay([send("Hi"), remove], originalTables()))).toEqual(["emails"]);
  });
  it("while a calendar event keeps label 0 whichever comes first (concat without ignore_index)", () => {
    const remove = call("calendar_delete_event", { event_id: "00000252" });
    expect(reward([remove, event("30")], [event("30"), remove])).toBe(1);
  });
  it("only the five databases and the plots are compared: reads and analytics questions change nothing", () => {
    const reads = [
      call("company_directory_find_email_address", { name: "raj" }),
      call("email_search_emails", { query: "update" }),
      call("analytics_get_average_session_duration", {}),
      call("customer_relationship_manager_search_customers", { status: "Won" }),
    ];
    expect(reward(reads, [])).toBe(1);
    expect(reward([...reads, call("analytics_create_plot", { time_min: "a", time_max: "b", value_to_plot: "user_engaged", plot_type: "bar" })], [])).toBe(0);
  });
});

describe("the replay (NeMo Gym's execute_actions_and_reset_state)", () => {
  const update = (id: string) => call("customer_relationship_manager_update_customer", { customer_id: id, field: "status", new_value: "Lost" });
  it("skips what raises and goes on: unknown tool, bad JSON, non-object arguments, unexpected keyword, an error inside", () => {
    const failing = [
      call("no_such_tool", {}),
      call("customer_relationship_manager_update_customer", "{oops"),
      call("customer_relationship_manager_update_customer", "[1, 2]"),
      call("customer_relationship_manager_update_customer", { customer_id: "00000037", field: "status", new_value: "Lost", reason: "x" }),
      call("customer_relationship_manager_update_customer", { customer_id: "00000037", field: "customer_email", new_value: 5 }),
      { arguments: "{}" },
    ];
    expect(reward([update("00000037"), ...failing, update("00000195")], [update("00000037"), update("00000195")])).toBe(1);
  });
  it("takes Python's JSON: NaN is a value (and truthy), so the update happens", () => {
    const nan = call("customer_relationship_manager_update_customer", '{"customer_id": "00000037", "field": "notes", "new_value": NaN}');
    expect(reward([nan], [])).toBe(0);
    expect(reward([nan], [call("customer_relationship_manager_update_customer", { customer_id: "00000037", field: "notes", new_value: 5 })])).toBe(1);
  });
  it("a ground truth that is a string replays as no call at all", () => {
    expect(reward([], "email_delete_email(00000259)")).toBe(1);
    expect(reward([call("email_delete_email", { email_id: "00000259" })], "email_delete_email(00000259)")).toBe(0);
  });
  it("keeps explicit nulls (no defaults for them): add_customer's notes default to '' but null stays NaN", () => {
    const add = (notes: unknown) =>
      call("customer_relationship_manager_add_customer", {
        customer_name: "Dakota Thomas",
        assigned_to_email: "nadia.moreau@atlas.com",
        status: "Lead",
        notes,
      });
    const base = call("customer_relationship_manager_add_customer", {
      customer_name: "Dakota Thomas",
      assigned_to_email: "nadia.moreau@atlas.com",
      status: "Lead",
    });
    expect(reward([add(null)], [base])).toBe(0);
    expect(reward([add("")], [base])).toBe(1);
  });
  it("starts every replay from the original tables", () => {
    const tables = originalTables();
    replay([call("email_delete_email", { email_id: "00000259" })], tables);
    expect(replay([], tables).frames.emails.rows).toHaveLength(500);
  });
});

describe("pd.Timestamp, as the tools read dates", () => {
  const ns = (text: string) => toTimestamp(text).ns;
  it("reads ISO 8601 dates and times, with the other separators and without", () => {
    const expected = ns("2023-11-30 10:05:00");
    for (const text of ["2023-11-30T10:05:00", "2023-11-30 10:05", "2023/11/30 10:05:00", "2023.11.30 10:05", "20231130 10:05", "11/30/2023 10:05:00"]) {
      expect(ns(text), text).toBe(expected);
    }
    expect(ns("2023-11-30")).toBe(ns("2023-11-30 00:00:00"));
    expect(ns("2023-11-30 10:05:00.5") - expected).toBe(500_000_000n);
  });
  it("reads month names", () => {
    for (const text of ["November 30, 2023", "Nov 30 2023", "30 November 2023", "30th Nov 2023"]) expect(ns(text), text).toBe(ns("2023-11-30"));
  });
  it("refuses what it cannot read, and impossible dates, with pandas' ValueError", () => {
    for (const text of ["next week", "2023-02-30", "2023-13-01", "2023-11-30 24:00:00"]) {
      expect(() => toTimestamp(text), text).toThrow(new PyError("ValueError", `Unknown datetime string format, unable to parse: ${text}`));
    }
    expect(() => toTimestamp(true)).toThrow(/Cannot convert input \[True\] of type <class 'bool'> to Timestamp/);
  });
  it("a number is nanoseconds since the epoch; 2024-02-29 exists", () => {
    expect(toTimestamp(1_700_000_000_000_000_000).ns).toBe(ns("2023-11-14 22:13:20"));
    expect(dateOf(toTimestamp("2024-02-29 23:59:59")) - dateOf(toTimestamp("2024-02-28"))).toBe(1n);
  });
  it("orders tz-aware instants by their UTC time and refuses to order naive against aware", () => {
    expect(compareTimestamps(toTimestamp("2023-11-30T10:00:00+02:00"), toTimestamp("2023-11-30T09:00:00Z"))).toBe(-1);
    expect(dateOf(toTimestamp("2023-11-30T23:30:00-05:00"))).toBe(dateOf(toTimestamp("2023-11-30")));
    expect(() => compareTimestamps(toTimestamp("2023-11-30"), toTimestamp("2023-11-30Z"))).toThrow("Cannot compare tz-naive and tz-aware timestamps");
  });
});

describe("pagination, with Python's arithmetic", () => {
  it("clamps the page to the last one and to 1", () => {
    expect(paginate(26, 99, 10)).toEqual({ start: 20, end: 26, page: 3, pageSize: 10, totalPages: 3 });
    expect(paginate(26, -4, 10)).toMatchObject({ start: 0, end: 10, page: 1 });
    expect(paginate(0, 3, 5)).toMatchObject({ page: 1, totalPages: 0 });
  });
  it("a negative page size slices as Python does", () => {
    // total_pages = (3 - 1 - 1) // -1 = -1, so page 1: items[0:-1].
    expect(paginate(3, 1, -1)).toEqual({ start: 0, end: -1, page: 1, pageSize: -1, totalPages: -1 });
  });
  it("raises Python's errors", () => {
    expect(() => paginate(3, 1, 0)).toThrow("integer division or modulo by zero");
    expect(() => paginate(3, 1, "5")).toThrow("unsupported operand type(s) for +: 'int' and 'str'");
    expect(() => paginate(3, "1", 5)).toThrow("'<' not supported between instances of 'int' and 'str'");
  });
});

describe("the bundled tables", () => {
  it("tables.generated.ts is data/'s CSVs as generate-tables.ts writes them (run it after changing a CSV)", () => {
    expect(readFileSync(GENERATED_FILE, "utf8")).toBe(generatedSource(readCsvFiles()));
  });
  it("hold NeMo Gym's tables as pandas reads them", () => {
    const tables = originalTables();
    const sizes = Object.fromEntries(Object.entries(tables).map(([name, table]) => [name, table.rows.length]));
    expect(sizes).toEqual({
      emails: 500,
      calendar_events: 300,
      analytics_data: 1000,
      project_tasks: 300,
      customer_relationship_manager_data: 200,
      plots: 0,
      company_directory: 20,
    });
    // Empty cells are NaN (100 customers have no phone), user_engaged a boolean, the notes' trailing spaces kept.
    expect(tables.customer_relationship_manager_data.rows.filter((c) => c.customer_phone === null)).toHaveLength(100);
    expect(new Set(tables.analytics_data.rows.map((v) => v.user_engaged))).toEqual(new Set([true, false]));
    expect(tables.customer_relationship_manager_data.rows[0]!.notes).toMatch(/ $/);
  });
});
