// NeMo Gym's own tests of workplace_assistant (tests/test_app.py, tests/test_docs_counts.py), ported: the same mock tables, calls and answers.
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../environments/workplace_assistant/toolkit.js";
import { stateMatchReward } from "../../environments/workplace_assistant/verify.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { mocked, session } from "../helpers/workplace_assistant.js";

describe("tests/test_app.py: each tool on NeMo Gym's mock tables", () => {
  it("test_company_directory_find_email_address", () => {
    const { call } = session(mocked({ company_directory: [{ email_address: "aisha.chen@atlas.com" }, { email_address: "carlos.rodriguez@atlas.com" }] }));
    expect(call("company_directory_find_email_address", { name: "aisha" })).toEqual(["aisha.chen@atlas.com"]);
  });

  it("test_email_get_email_information_by_id", () => {
    const { call } = session(
      mocked({
        emails: [
          {
            email_id: "00000393",
            "inbox/outbox": "inbox",
            "sender/recipient": "raj.patel@atlas.com",
            subject: "Update on Supply Chain",
            sent_datetime: "2023-10-01 13:11:52",
            body: "Dear Sam, I have some ideas...",
          },
          {
            email_id: "00000123",
            "inbox/outbox": "outbox",
            "sender/recipient": "test@example.com",
            subject: "Test Subject",
            sent_datetime: "2023-10-01 14:00:00",
            body: "This is a test body.",
          },
        ],
      }),
    );
    expect(call("email_get_email_information_by_id", { email_id: "00000393", field: "inbox/outbox" })).toEqual({ "inbox/outbox": "inbox" });
  });

  it("test_email_search_emails", () => {
    const match = {
      email_id: "match_01",
      "inbox/outbox": "inbox",
      "sender/recipient": "aisha.chen@atlas.com",
      subject: "Matching Email Subject",
      sent_datetime: "2025-09-01 10:00:00",
      body: "This is a test email from Aisha.",
    };
    const other = {
      email_id: "no_match_01",
      "inbox/outbox": "inbox",
      "sender/recipient": "another.user@example.com",
      subject: "Non-Matching Subject",
      sent_datetime: "2025-09-01 11:00:00",
      body: "This email should not be found.",
    };
    const { call } = session(mocked({ emails: [match, other] }));
    expect(call("email_search_emails", { query: "aisha.chen@atlas.com" })).toEqual({
      emails: [match],
      pagination: { total_emails: 1, page: 1, page_size: 5, total_pages: 1 },
    });
  });

  it("test_email_send_email", () => {
    const { call } = session(
      mocked({
        emails: [
          {
            email_id: "123",
            "inbox/outbox": "inbox",
            "sender/recipient": "initial.user@example.com",
            subject: "Initial Email",
            sent_datetime: "2025-01-01 12:00:00",
            body: "This is a pre-existing email.",
          },
        ],
      }),
    );
    expect(call("email_send_email", { recipient: "aisha.chen@atlas.com", subject: "regarding something", body: "some body" })).toBe("Email sent successfully.");
  });

  it("test_email_delete_email", () => {
    const email = (id: string) => ({
      email_id: id,
      "inbox/outbox": "inbox",
      "sender/recipient": "user.one@example.com",
      subject: "Email",
      sent_datetime: "2025-01-01 12:00:00",
      body: "A test email.",
    });
    const { call } = session(mocked({ emails: [email("00000393"), email("00000123")] }));
    expect(call("email_delete_email", { email_id: "00000393" })).toBe("Email deleted successfully.");
  });

  it("test_email_forward_email", () => {
    const { call } = session(
      mocked({
        emails: [
          {
            email_id: "00000393",
            "inbox/outbox": "inbox",
            "sender/recipient": "original.sender@example.com",
            subject: "Original Subject",
            sent_datetime: "2025-01-01 12:00:00",
            body: "This is the original email body.",
          },
        ],
      }),
    );
    expect(call("email_forward_email", { email_id: "00000393", recipient: "aisha.chen@atlas.com" })).toBe("Email forwarded successfully.");
  });

  it("test_calendar_get_event_information_by_id", () => {
    const event = {
      event_id: "00000013",
      event_name: "Test Event",
      participant_email: "test.user@example.com",
      event_start: "2025-09-02 10:00:00",
      duration: "60",
    };
    const { call } = session(mocked({ calendar_events: [event] }));
    expect(call("calendar_get_event_information_by_id", { event_id: "00000013", field: "event_id" })).toEqual({ event_id: "00000013" });
  });

  it("test_calendar_search_events", () => {
    const entry1 = {
      event_id: "00000016",
      event_name: "sync up",
      participant_email: "santiago.martinez@atlas.com",
      event_start: "2023-12-12 12:00:00",
      duration: "90",
    };
    const entry2 = {
      event_id: "00000017",
      event_name: "Team sync up",
      participant_email: "aisha.chen@atlas.com",
      event_start: "2023-12-13 10:00:00",
      duration: "30",
    };
    const other = {
      event_id: "00000018",
      event_name: "Project Deadline",
      participant_email: "sam@example.com",
      event_start: "2023-12-14 17:00:00",
      duration: "5",
    };
    const { call } = session(mocked({ calendar_events: [entry1, entry2, other] }));
    expect(call("calendar_search_events", { query: "sync up" })).toEqual({
      events: [entry2, entry1],
      pagination: { total_events: 2, page: 1, page_size: 5, total_pages: 1 },
    });
  });

  it("test_calendar_delete_event", () => {
    const { call } = session(
      mocked({
        calendar_events: [
          { event_id: "00000013", event_name: "Event to Delete" },
          { event_id: "00000014", event_name: "Another Event" },
        ],
      }),
    );
    expect(call("calendar_delete_event", { event_id: "00000013" })).toBe("Event deleted successfully.");
  });

  it("test_calendar_update_event", () => {
    const event = {
      event_id: "00000013",
      event_name: "Initial Name",
      participant_email: "test@example.com",
      event_start: "2025-01-01 10:00:00",
      duration: "60",
    };
    const { call } = session(mocked({ calendar_events: [event] }));
    expect(call("calendar_update_event", { event_id: "00000013", field: "duration", new_value: "100" })).toBe("Event updated successfully.");
  });

  it("test_analytics_engaged_users_count", () => {
    const { call } = session(
      mocked({
        analytics_data: [
          { date_of_visit: "2023-10-22", visitor_id: "0860", page_views: 8, session_duration_seconds: 4, traffic_source: "referral", user_engaged: false },
        ],
      }),
    );
    expect(call("analytics_engaged_users_count", { time_min: "2023-10-22", time_max: "2023-11-22" })).toEqual({ "2023-10-22": 0 });
  });

  it("test_analytics_get_visitor_information_by_id", () => {
    // reset_state turns the "True"/"False" text into booleans.
    const { call } = session(
      mocked({
        analytics_data: [
          {
            date_of_visit: "2023-10-22",
            visitor_id: "0860",
            page_views: "8",
            session_duration_seconds: "4",
            traffic_source: "referral",
            user_engaged: "False",
          },
          { date_of_visit: "2023-11-22", visitor_id: "4426", page_views: "3", session_duration_seconds: "12", traffic_source: "direct", user_engaged: "True" },
        ],
      }),
    );
    expect(call("analytics_get_visitor_information_by_id", { visitor_id: "0860" })).toEqual([
      { date_of_visit: "2023-10-22", visitor_id: "0860", page_views: "8", session_duration_seconds: "4", traffic_source: "referral", user_engaged: false },
    ]);
  });

  it("test_analytics_create_plot", () => {
    const { call } = session(mocked({ analytics_data: [{ date_of_visit: "2023-10-22", page_views: "10", user_engaged: "False" }] }));
    const args = { time_min: "2023-10-22", time_max: "2023-10-22", value_to_plot: "total_visits", plot_type: "bar" };
    expect(call("analytics_create_plot", args)).toBe("plots/2023-10-22_2023-10-22_total_visits_bar.png");
  });

  it("test_analytics_traffic_source_count", () => {
    const visit = (date_of_visit: string, traffic_source: string) => ({ date_of_visit, traffic_source, user_engaged: "False" });
    const { call } = session(
      mocked({
        analytics_data: [visit("2023-10-22", "referral"), visit("2023-10-22", "referral"), visit("2023-10-22", "direct"), visit("2023-10-23", "referral")],
      }),
    );
    expect(call("analytics_traffic_source_count", { time_min: "2023-10-22", time_max: "2023-10-22", traffic_source: "referral" })).toEqual({ "2023-10-22": 2 });
  });

  it("test_analytics_total_visits_count", () => {
    const visits = [...Array(13).fill("2023-10-22"), ...Array(2).fill("2023-10-23")].map((date_of_visit) => ({ date_of_visit, user_engaged: "False" }));
    const { call } = session(mocked({ analytics_data: visits }));
    expect(call("analytics_total_visits_count", { time_min: "2023-10-22", time_max: "2023-10-22" })).toEqual({ "2023-10-22": 13 });
  });

  it("test_analytics_get_average_session_duration", () => {
    const visit = (date_of_visit: string, session_duration_seconds: string) => ({ date_of_visit, session_duration_seconds, user_engaged: "False" });
    const visits = [...Array(12).fill(visit("2023-10-22", "15")), visit("2023-10-22", "25"), visit("2023-10-23", "100")];
    const { call } = session(mocked({ analytics_data: visits }));
    expect(call("analytics_get_average_session_duration", { time_min: "2023-10-22", time_max: "2023-10-22" })).toEqual({ "2023-10-22": 15.76923076923077 });
  });

  it("test_project_management_get_task_information_by_id", () => {
    const { call } = session(mocked({ project_tasks: [{ task_id: "00000149", task_name: "Test Task" }] }));
    expect(call("project_management_get_task_information_by_id", { task_id: "00000149", field: "task_id" })).toEqual({ task_id: "00000149" });
  });

  it("test_project_management_search_tasks", () => {
    const task = (task_id: string, task_name: string) => ({
      task_id,
      task_name,
      assigned_to_email: "leila.azizi@atlas.com",
      list_name: "Backlog",
      due_date: "2023-11-27",
      board: "Front end",
    });
    const expected = [task("00000149", "Add animation to carousel"), task("00000151", "Fix alignment issue in profile page")];
    const other = {
      task_id: "00000999",
      task_name: "Irrelevant Task",
      assigned_to_email: "other@user.com",
      list_name: "Done",
      due_date: "2025-01-01",
      board: "Design",
    };
    const { call } = session(mocked({ project_tasks: [...expected, other] }));
    const args = { task_name: "", assigned_to_email: "leila.azizi@atlas.com", list_name: "Backlog", due_date: "2023-11-27", board: "Front end" };
    expect(call("project_management_search_tasks", args)).toEqual(expected);
  });

  it("test_project_management_create_task", () => {
    const { call } = session(mocked({ project_tasks: [{ task_id: "00000299", assigned_to_email: "leila.azizi@atlas.com", task_name: "Existing Task" }] }));
    const args = {
      task_name: "Add animation to carousel",
      assigned_to_email: "leila.azizi@atlas.com",
      list_name: "Backlog",
      due_date: "2023-11-27",
      board: "Front end",
    };
    expect(call("project_management_create_task", args)).toBe("00000300");
  });

  it("test_project_management_delete_task", () => {
    const { call } = session(mocked({ project_tasks: [{ task_id: "00000149", task_name: "A task to delete" }] }));
    expect(call("project_management_delete_task", { task_id: "00000149" })).toBe("Task deleted successfully.");
  });

  it("test_project_management_update_task", () => {
    const { call } = session(mocked({ project_tasks: [{ task_id: "00000149", task_name: "Some Task", board: "Front end" }] }));
    expect(call("project_management_update_task", { task_id: "00000149", field: "board", new_value: "Design" })).toBe("Task updated successfully.");
  });

  it("test_customer_relationship_manager_search_customers", () => {
    const expected = {
      customer_id: "00000052",
      assigned_to_email: "raj.patel@atlas.com",
      customer_name: "Jaden White",
      customer_email: "jaden.white@protracefoods",
      customer_phone: "724-857-2625",
      last_contact_date: "2023-11-30 23:59:00",
      product_interest: "Hardware",
      status: "Won",
      follow_up_by: "2023-12-13 23:59:00",
      notes: "2023-10-17: Had a call. ",
    };
    const { call } = session(mocked({ customer_relationship_manager_data: [expected, { customer_id: "00000999", customer_name: "Jane Doe" }] }));
    const args = {
      customer_name: "Jaden White",
      customer_email: "jaden.white@protracefoods",
      product_interest: "Hardware",
      status: "Won",
      assigned_to_email: "raj.patel@atlas.com",
      last_contact_date_min: "2023-11-30 23:59:00",
      last_contact_date_max: "2023-11-30 23:59:00",
      follow_up_by_min: "2023-12-13 23:5",
    };
    expect(call("customer_relationship_manager_search_customers", args)).toEqual({
      customers: [expected],
      pagination: { total_customers: 1, page: 1, page_size: 5, total_pages: 1 },
    });
  });

  it("test_customer_relationship_manager_update_customer", () => {
    const { call } = session(mocked({ customer_relationship_manager_data: [{ customer_id: "00000189", customer_name: "old name" }] }));
    expect(call("customer_relationship_manager_update_customer", { customer_id: "00000189", field: "customer_name", new_value: "new customer" })).toBe(
      "Customer updated successfully.",
    );
  });

  it("test_customer_relationship_manager_add_customer", () => {
    const { call } = session(mocked({ customer_relationship_manager_data: [{ customer_id: "00000199", customer_name: "Max ID Customer" }] }));
    const args = {
      customer_name: "Some customer",
      product_interest: "Hardware",
      status: "Won",
      assigned_to_email: "raj.patel@atlas.com",
      last_contact_date: "2023-11-30 23:59:00",
      follow_up_by: "2023-12-13 23:59:00",
      notes: "some notes",
    };
    expect(call("customer_relationship_manager_add_customer", args)).toBe("00000200");
  });

  it("test_customer_relationship_manager_delete_customer", () => {
    const { call } = session(mocked({ customer_relationship_manager_data: [{ customer_id: "00000189", customer_name: "Customer to Delete" }] }));
    expect(call("customer_relationship_manager_delete_customer", { customer_id: "00000189" })).toBe("Customer deleted successfully.");
  });

  it("test_verify: the predicted reply leaves the tables as the expected one does, reward 1", () => {
    const tables = mocked({
      emails: [
        {
          email_id: "00000057",
          "inbox/outbox": "inbox",
          "sender/recipient": "carlos.rodriguez@atlas.com",
          subject: "Task Update on Develop prototype for report generation",
          sent_datetime: "2023-11-29 10:00:00",
          body: "Just an update.",
        },
      ],
    });
    const reply = { name: "email_reply_email", arguments: '{"email_id": "00000057", "body": "Thanks for the update - I will get back to you tomorrow."}' };
    expect(stateMatchReward([reply], [reply], tables).reward).toBe(1);
  });

  it("test_stateful_email_deletion_and_fetch: the deleted email is gone for the session, and verify scores 1", () => {
    const email = {
      email_id: "00000146",
      "inbox/outbox": "inbox",
      "sender/recipient": "jane.doe@example.com",
      subject: "Project Update",
      sent_datetime: "2025-09-22 14:30:00",
      body: "Here is the project update you requested.",
    };
    const { call } = session(mocked({ emails: [email] }));
    expect(call("email_delete_email", { email_id: "00000146" })).toBe("Email deleted successfully.");
    expect(call("email_get_email_information_by_id", { email_id: "00000146", field: "email_id" })).toBe("Email not found.");

    const predicted = [
      { name: "email_delete_email", arguments: '{"email_id":"00000146"}' },
      { name: "email_get_email_information_by_id", arguments: '{"email_id":"00000146","field":"email_id"}' },
    ];
    const groundTruth = [
      { name: "email_delete_email", arguments: '{"email_id": "00000146"}' },
      { name: "email_get_email_information_by_id", arguments: '{"email_id": "00000146", "field": "email_id"}' },
    ];
    expect(stateMatchReward(predicted, groundTruth, mocked({ emails: [email] })).reward).toBe(1);
  });

  it("test_extra_arguments_error_handling: an unexpected keyword goes back to the model as text", () => {
    const { call } = session(
      mocked({ emails: [{ email_id: "00000057", "sender/recipient": "carlos.rodriguez@atlas.com", subject: "Task Update", body: "Just an update." }] }),
    );
    const output = call("email_get_email_information_by_id", { email_id: "00000057", field: "subject", useless_argument: "this should cause an error" });
    expect(output).toContain("get_email_information_by_id': EmailTool.get_email_information_by_id() got an unexpected keyword argument 'useless_argument'");
  });
});

describe("tests/test_docs_counts.py", () => {
  const names = Object.keys(TOOLS);
  it("27 tools: the company directory and the five toolkits", () => {
    expect(names).toHaveLength(27);
    const toolkits = ["company_directory", "email", "calendar", "analytics", "project_management", "customer_relationship_manager"];
    expect(new Set(names.map((name) => toolkits.find((t) => name.startsWith(`${t}_`))))).toEqual(new Set(toolkits));
  });
  it("only the company directory is read-only (one tool)", () => {
    expect(names.filter((name) => name.startsWith("company_directory_"))).toEqual(["company_directory_find_email_address"]);
  });
  it("the README quotes the count", async () => {
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(new URL("../../environments/workplace_assistant/README.md", import.meta.url), "utf8")).toContain(`${names.length} tools`);
  });
  it("every example row offers exactly these tools, described as here", () => {
    for (const row of fixtureRows("workplace_assistant")) {
      const offered = (row.responses_create_params as { tools: { name: string; description: string; parameters: unknown }[] }).tools;
      expect(offered.map((t) => t.name)).toEqual(names);
      for (const tool of offered) {
        const spec = TOOLS[tool.name]!;
        expect(tool.description).toBe(spec.description);
        expect(tool.parameters).toEqual({
          type: "object",
          properties: Object.fromEntries(Object.entries(spec.parameters).map(([name, p]) => [name, { type: p.type, description: p.description }])),
          required: spec.required,
          additionalProperties: false,
        });
      }
    }
  });
});
