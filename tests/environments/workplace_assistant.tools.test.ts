// Every workplace tool with valid and invalid arguments, answered alike by a session's SQLite (workerd) and by memory (verify's replays).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";
import { session } from "../helpers/workplace_assistant.js";

const NAME = "workplace_assistant";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

type Args = Record<string, unknown>;
/** A tool call and what the model is shown (`output`); `before` are calls made first in the same session. */
interface Case {
  what: string;
  tool: string;
  args: Args;
  output: unknown;
  before?: [string, Args][];
}

const INVALID_ID = "Invalid event ID format. Expected 8-digit ID.";
const INVALID_START = "Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.";
const error = (tool: string, message: string) => `Error executing tool '${tool}': ${message}`;
const LEILA_BACKLOG_FRONT_END = ["00000149", "00000151", "00000190", "00000111", "00000119", "00000177", "00000155", "00000161", "00000144", "00000142"];
const EVENT = { event_name: "Budget review", participant_email: "Raj.Patel@atlas.com", event_start: "2023-12-04 10:00:00", duration: "30" };
const TASK = { task_name: "Write release notes", assigned_to_email: "Leila.Azizi@atlas.com", list_name: "Backlog", due_date: "2023-12-08", board: "Front end" };
const CASEY = {
  customer_id: "00000014",
  assigned_to_email: "akira.sato@atlas.com",
  customer_name: "Casey Wilson",
  customer_email: "casey.wilson@ultradynamics",
  customer_phone: null,
  last_contact_date: "2023-10-09 23:59:00",
  product_interest: "Hardware",
  status: "Qualified",
  follow_up_by: "2023-10-29 23:59:00",
  notes: "2023-10-18: Met in person. ",
};

const CASES: Case[] = [
  // company directory
  { what: "a name", tool: "company_directory_find_email_address", args: { name: "aisha" }, output: ["aisha.chen@atlas.com"] },
  { what: "a pattern, any case", tool: "company_directory_find_email_address", args: { name: "A.*Chen" }, output: ["aisha.chen@atlas.com"] },
  { what: "no name", tool: "company_directory_find_email_address", args: {}, output: "Name not provided." },
  {
    what: "not a str",
    tool: "company_directory_find_email_address",
    args: { name: 7 },
    output: error("company_directory_find_email_address", "'int' object has no attribute 'lower'"),
  },
  // email
  {
    what: "a field",
    tool: "email_get_email_information_by_id",
    args: { email_id: "00000259", field: "subject" },
    output: { subject: "Task Update on Create wireframe for homepage" },
  },
  { what: "no field", tool: "email_get_email_information_by_id", args: { email_id: "00000259" }, output: "Field not provided." },
  { what: "no id", tool: "email_get_email_information_by_id", args: { field: "subject" }, output: "Email ID not provided." },
  {
    what: "an unknown field",
    tool: "email_get_email_information_by_id",
    args: { email_id: "00000259", field: "cc" },
    output: "Field 'cc' not found. Available fields: email_id, inbox/outbox, sender/recipient, subject, sent_datetime, body",
  },
  { what: "a number for the id", tool: "email_get_email_information_by_id", args: { email_id: 259, field: "subject" }, output: "Email not found." },
  {
    what: "words and days",
    tool: "email_search_emails",
    args: { query: "Kofi wireframe", date_min: "2023-11-01", date_max: "2023-11-30" },
    output: expect.objectContaining({
      emails: [expect.objectContaining({ email_id: "00000259" })],
      pagination: { total_emails: 1, page: 1, page_size: 5, total_pages: 1 },
    }),
  },
  {
    what: "a page past the last",
    tool: "email_search_emails",
    args: { query: "kofi", page: 99, page_size: 10 },
    output: expect.objectContaining({ pagination: { total_emails: 26, page: 3, page_size: 10, total_pages: 3 } }),
  },
  { what: "nothing found", tool: "email_search_emails", args: { query: "zzzz" }, output: "No emails found." },
  {
    what: "page_size 0",
    tool: "email_search_emails",
    args: { query: "kofi", page_size: 0 },
    output: "Error searching emails: integer division or modulo by zero",
  },
  {
    what: "a date pandas cannot read",
    tool: "email_search_emails",
    args: { query: "kofi", date_min: "next week" },
    output: "Error searching emails: Unknown datetime string format, unable to parse: next week",
  },
  {
    what: "a page as text",
    tool: "email_search_emails",
    args: { query: "kofi", page: "2" },
    output: "Error searching emails: '<' not supported between instances of 'int' and 'str'",
  },
  { what: "send", tool: "email_send_email", args: { recipient: "Aisha.Chen@atlas.com", subject: "Hi", body: "Hello" }, output: "Email sent successfully." },
  {
    what: "the sent email",
    before: [["email_send_email", { recipient: "Aisha.Chen@atlas.com", subject: "Hi", body: "Hello" }]],
    tool: "email_search_emails",
    args: { query: "hi hello aisha", date_min: "2023-11-30" },
    output: {
      emails: [
        {
          email_id: "500",
          "inbox/outbox": "outbox",
          "sender/recipient": "aisha.chen@atlas.com",
          subject: "Hi",
          sent_datetime: "2023-11-30 23:59:00",
          body: "Hello",
        },
      ],
      pagination: { total_emails: 1, page: 1, page_size: 5, total_pages: 1 },
    },
  },
  { what: "no address", tool: "email_send_email", args: { recipient: "nobody", subject: "s", body: "b" }, output: "Invalid recipient email address." },
  { what: "no body", tool: "email_send_email", args: { recipient: "a@b.co", subject: "s" }, output: "Recipient, subject, or body not provided." },
  {
    what: "a number as recipient",
    tool: "email_send_email",
    args: { recipient: 5, subject: "s", body: "b" },
    output: error("email_send_email", "argument of type 'int' is not iterable"),
  },
  { what: "delete", tool: "email_delete_email", args: { email_id: "00000259" }, output: "Email deleted successfully." },
  {
    what: "delete twice",
    before: [["email_delete_email", { email_id: "00000259" }]],
    tool: "email_delete_email",
    args: { email_id: "00000259" },
    output: "Email not found.",
  },
  { what: "delete without id", tool: "email_delete_email", args: {}, output: "Email ID not provided." },
  {
    what: "the forwarded email",
    before: [["email_forward_email", { email_id: "00000259", recipient: "Aisha.Chen@atlas.com" }]],
    tool: "email_get_email_information_by_id",
    args: { email_id: "500", field: "subject" },
    output: { subject: "FW: Task Update on Create wireframe for homepage" },
  },
  { what: "forward", tool: "email_forward_email", args: { email_id: "00000259", recipient: "aisha.chen@atlas.com" }, output: "Email forwarded successfully." },
  {
    what: "forward to no address",
    tool: "email_forward_email",
    args: { email_id: "00000259", recipient: "aisha" },
    output: "Invalid recipient email address.",
  },
  { what: "forward a missing email", tool: "email_forward_email", args: { email_id: "99999999", recipient: "a@b.co" }, output: "Email not found." },
  { what: "forward without id", tool: "email_forward_email", args: { recipient: "a@b.co" }, output: "Email ID or recipient not provided." },
  { what: "reply", tool: "email_reply_email", args: { email_id: "00000057", body: "Thanks" }, output: "Email replied successfully." },
  {
    what: "the reply",
    before: [["email_reply_email", { email_id: "00000057", body: "Thanks" }]],
    tool: "email_get_email_information_by_id",
    args: { email_id: "500", field: "sender/recipient" },
    output: { "sender/recipient": "carlos.rodriguez@atlas.com" },
  },
  { what: "reply without body", tool: "email_reply_email", args: { email_id: "00000057" }, output: "Email ID or body not provided." },
  { what: "reply to a missing email", tool: "email_reply_email", args: { email_id: "nope", body: "x" }, output: "Email not found." },
  // calendar
  {
    what: "a field",
    tool: "calendar_get_event_information_by_id",
    args: { event_id: "00000252", field: "event_start" },
    output: { event_start: "2023-12-01 15:00:00" },
  },
  { what: "a short id", tool: "calendar_get_event_information_by_id", args: { event_id: "252", field: "event_name" }, output: INVALID_ID },
  {
    what: "an unknown field",
    tool: "calendar_get_event_information_by_id",
    args: { event_id: "00000252", field: "location" },
    output: "Invalid field. Available fields are: event_id, event_name, participant_email, event_start, duration",
  },
  { what: "a missing event", tool: "calendar_get_event_information_by_id", args: { event_id: "99999999", field: "event_name" }, output: "Event not found." },
  {
    what: "a day's events, newest first",
    tool: "calendar_search_events",
    args: { time_min: "2023-12-01 00:00:00", time_max: "2023-12-01 23:59:59", page_size: 10 },
    output: expect.objectContaining({
      events: ["00000252", "00000261", "00000093", "00000237", "00000091", "00000165"].map((event_id) => expect.objectContaining({ event_id })),
      pagination: { total_events: 6, page: 1, page_size: 10, total_pages: 1 },
    }),
  },
  {
    what: "a participant on a day (dates without time)",
    tool: "calendar_search_events",
    args: { query: "Aisha", time_min: "2023-12-01", time_max: "2023-12-01 23:00" },
    output: {
      events: [
        {
          event_id: "00000252",
          event_name: "brainstorming session",
          participant_email: "aisha.chen@atlas.com",
          event_start: "2023-12-01 15:00:00",
          duration: "120",
        },
      ],
      pagination: { total_events: 1, page: 1, page_size: 5, total_pages: 1 },
    },
  },
  { what: "an unreadable bound", tool: "calendar_search_events", args: { time_min: "soon" }, output: "Invalid time_min format. Expected YYYY-MM-DD HH:MM:SS." },
  { what: "nothing found", tool: "calendar_search_events", args: { query: "zzzz" }, output: "No events found." },
  {
    what: "a tz-aware bound",
    tool: "calendar_search_events",
    args: { query: "sync", time_min: "2023-12-01T00:00:00Z" },
    output: error("calendar_search_events", "Cannot compare tz-naive and tz-aware timestamps"),
  },
  { what: "create", tool: "calendar_create_event", args: EVENT, output: "00000300" },
  {
    what: "the created event",
    before: [["calendar_create_event", EVENT]],
    tool: "calendar_get_event_information_by_id",
    args: { event_id: "00000300", field: "participant_email" },
    output: { participant_email: "raj.patel@atlas.com" },
  },
  {
    what: "a duration in words",
    tool: "calendar_create_event",
    args: { ...EVENT, duration: "half an hour" },
    output: "Invalid duration format. Expected a number of minutes.",
  },
  { what: "a zero duration", tool: "calendar_create_event", args: { ...EVENT, duration: "0" }, output: "Duration must be a positive number of minutes." },
  { what: "a start in words", tool: "calendar_create_event", args: { ...EVENT, event_start: "next Monday" }, output: INVALID_START },
  { what: "no name", tool: "calendar_create_event", args: { ...EVENT, event_name: "" }, output: "Event name not provided." },
  { what: "delete", tool: "calendar_delete_event", args: { event_id: "00000252" }, output: "Event deleted successfully." },
  { what: "delete a missing event", tool: "calendar_delete_event", args: { event_id: "99999999" }, output: "Event not found." },
  { what: "delete a short id", tool: "calendar_delete_event", args: { event_id: "2523" }, output: INVALID_ID },
  {
    what: "rename",
    tool: "calendar_update_event",
    args: { event_id: "00000252", field: "event_name", new_value: "Risk Management Forum" },
    output: "Event updated successfully.",
  },
  {
    what: "the renamed event",
    before: [["calendar_update_event", { event_id: "00000252", field: "duration", new_value: "45" }]],
    tool: "calendar_get_event_information_by_id",
    args: { event_id: "00000252", field: "duration" },
    output: { duration: "45" },
  },
  {
    what: "an unknown field",
    tool: "calendar_update_event",
    args: { event_id: "00000252", field: "location", new_value: "Room 1" },
    output: "Invalid field. Available fields are: event_name, participant_email, event_start, duration",
  },
  { what: "a start in words", tool: "calendar_update_event", args: { event_id: "00000252", field: "event_start", new_value: "later" }, output: INVALID_START },
  {
    what: "a negative duration",
    tool: "calendar_update_event",
    args: { event_id: "00000252", field: "duration", new_value: "-5" },
    output: "Duration must be a positive number of minutes.",
  },
  {
    what: "no new value",
    tool: "calendar_update_event",
    args: { event_id: "00000252", field: "duration" },
    output: "Event ID, field, or new value not provided.",
  },
  // analytics
  {
    what: "a visitor",
    tool: "analytics_get_visitor_information_by_id",
    args: { visitor_id: "0860" },
    output: [
      { date_of_visit: "2023-10-22", visitor_id: "0860", page_views: "8", session_duration_seconds: "4", traffic_source: "referral", user_engaged: false },
    ],
  },
  { what: "an unknown visitor", tool: "analytics_get_visitor_information_by_id", args: { visitor_id: "nobody" }, output: "Visitor not found." },
  { what: "no visitor", tool: "analytics_get_visitor_information_by_id", args: {}, output: "Visitor ID not provided." },
  {
    what: "a plot",
    tool: "analytics_create_plot",
    args: { time_min: "2023-11-01", time_max: "2023-11-29", value_to_plot: "total_visits", plot_type: "line" },
    output: "plots/2023-11-01_2023-11-29_total_visits_line.png",
  },
  {
    what: "a pie chart",
    tool: "analytics_create_plot",
    args: { time_min: "2023-11-01", time_max: "2023-11-29", value_to_plot: "total_visits", plot_type: "pie" },
    output: "Plot type must be one of 'bar', 'line', 'scatter', or 'histogram'",
  },
  {
    what: "an unknown value",
    tool: "analytics_create_plot",
    args: { time_min: "2023-11-01", time_max: "2023-11-29", value_to_plot: "revenue", plot_type: "bar" },
    output:
      "Value to plot must be one of 'total_visits', 'session_duration_seconds', 'user_engaged', 'visits_direct', 'visits_referral', 'visits_search_engine', 'visits_social_media'",
  },
  {
    what: "no end date",
    tool: "analytics_create_plot",
    args: { time_min: "2023-11-01", value_to_plot: "total_visits", plot_type: "bar" },
    output: "End date not provided.",
  },
  {
    what: "two days",
    tool: "analytics_total_visits_count",
    args: { time_min: "2023-11-29", time_max: "2023-11-30" },
    output: { "2023-11-29": 9, "2023-11-30": 7 },
  },
  {
    what: "a number as date",
    tool: "analytics_total_visits_count",
    args: { time_min: 20231129 },
    output: error("analytics_total_visits_count", "'>=' not supported between instances of 'str' and 'int'"),
  },
  { what: "engaged, two days", tool: "analytics_engaged_users_count", args: { time_min: "2023-11-29" }, output: { "2023-11-29": 4, "2023-11-30": 4 } },
  {
    what: "direct visits",
    tool: "analytics_traffic_source_count",
    args: { time_min: "2023-11-29", traffic_source: "direct" },
    output: { "2023-11-29": 4, "2023-11-30": 4 },
  },
  { what: "no source: every visit", tool: "analytics_traffic_source_count", args: { time_min: "2023-11-29" }, output: { "2023-11-29": 9, "2023-11-30": 7 } },
  {
    what: "an unknown source counts 0",
    tool: "analytics_traffic_source_count",
    args: { time_min: "2023-11-30", traffic_source: "carrier pigeon" },
    output: { "2023-11-30": 0 },
  },
  {
    what: "average durations",
    tool: "analytics_get_average_session_duration",
    args: { time_min: "2023-11-29" },
    output: { "2023-11-29": 20.666666666666668, "2023-11-30": 18.142857142857142 },
  },
  {
    what: "a number as bound",
    tool: "analytics_get_average_session_duration",
    args: { time_max: 5 },
    output: error("analytics_get_average_session_duration", "'<=' not supported between instances of 'str' and 'int'"),
  },
  {
    what: "durations become numbers after an unbounded average (pandas converts the table itself)",
    before: [["analytics_get_average_session_duration", {}]],
    tool: "analytics_get_visitor_information_by_id",
    args: { visitor_id: "0860" },
    output: [expect.objectContaining({ session_duration_seconds: 4 })],
  },
  // project management
  { what: "a field", tool: "project_management_get_task_information_by_id", args: { task_id: "00000149", field: "board" }, output: { board: "Front end" } },
  {
    what: "an unknown field",
    tool: "project_management_get_task_information_by_id",
    args: { task_id: "00000149", field: "priority" },
    output: "Field not found.",
  },
  { what: "a missing task", tool: "project_management_get_task_information_by_id", args: { task_id: "99999999", field: "board" }, output: "Task not found." },
  { what: "no id", tool: "project_management_get_task_information_by_id", args: { field: "board" }, output: "Task ID not provided." },
  {
    what: "an assignee's backlog on a board",
    tool: "project_management_search_tasks",
    args: { assigned_to_email: "Leila.Azizi@atlas.com", list_name: "backlog", board: "front" },
    output: [...LEILA_BACKLOG_FRONT_END, "00000143", "00000163", "00000168"].map((task_id) => expect.objectContaining({ task_id })),
  },
  { what: "nothing to search by", tool: "project_management_search_tasks", args: { task_name: "" }, output: "No search parameters provided." },
  {
    what: "not an address",
    tool: "project_management_search_tasks",
    args: { assigned_to_email: "leila" },
    output: "Invalid email format for assigned_to_email.",
  },
  { what: "create", tool: "project_management_create_task", args: TASK, output: "00000300" },
  {
    what: "the created task",
    before: [["project_management_create_task", TASK]],
    tool: "project_management_get_task_information_by_id",
    args: { task_id: "00000300", field: "assigned_to_email" },
    output: { assigned_to_email: "leila.azizi@atlas.com" },
  },
  {
    what: "an unknown list",
    tool: "project_management_create_task",
    args: { ...TASK, list_name: "Done" },
    output: "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.",
  },
  {
    what: "an outsider",
    tool: "project_management_create_task",
    args: { ...TASK, assigned_to_email: "someone@else.com" },
    output: "Assignee email not valid. Please choose from the list of team members.",
  },
  {
    what: "an unknown board",
    tool: "project_management_create_task",
    args: { ...TASK, board: "QA" },
    output: "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'.",
  },
  { what: "no due date", tool: "project_management_create_task", args: { ...TASK, due_date: "" }, output: "Missing task details." },
  { what: "delete", tool: "project_management_delete_task", args: { task_id: "00000149" }, output: "Task deleted successfully." },
  { what: "delete a missing task", tool: "project_management_delete_task", args: { task_id: "99999999" }, output: "Task not found." },
  {
    what: "move",
    tool: "project_management_update_task",
    args: { task_id: "00000149", field: "list_name", new_value: "In Progress" },
    output: "Task updated successfully.",
  },
  {
    what: "an unknown field",
    tool: "project_management_update_task",
    args: { task_id: "00000149", field: "priority", new_value: "high" },
    output: "Field not valid.",
  },
  {
    what: "an unknown board",
    tool: "project_management_update_task",
    args: { task_id: "00000149", field: "board", new_value: "QA" },
    output: "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'.",
  },
  {
    what: "an outsider",
    tool: "project_management_update_task",
    args: { task_id: "00000149", field: "assigned_to_email", new_value: "x@y.zz" },
    output: "Assignee email not valid. Please choose from the list of team members.",
  },
  {
    what: "no new value",
    tool: "project_management_update_task",
    args: { task_id: "00000149", field: "board" },
    output: "Task ID, field, or new value not provided.",
  },
  // CRM
  {
    what: "a customer by name",
    tool: "customer_relationship_manager_search_customers",
    args: { customer_name: "Casey Wilson" },
    output: { customers: [CASEY], pagination: { total_customers: 1, page: 1, page_size: 5, total_pages: 1 } },
  },
  {
    what: "an owner's won service customers",
    tool: "customer_relationship_manager_search_customers",
    args: { status: "Won", product_interest: "services", assigned_to_email: "lena" },
    output: expect.objectContaining({
      customers: ["00000009", "00000112", "00000039", "00000047"].map((customer_id) => expect.objectContaining({ customer_id })),
    }),
  },
  {
    what: "nothing to search by",
    tool: "customer_relationship_manager_search_customers",
    args: { page: 2 },
    output: "No search parameters provided. Please provide at least one parameter.",
  },
  { what: "nobody found", tool: "customer_relationship_manager_search_customers", args: { customer_name: "Nobody Here" }, output: "No customers found." },
  {
    what: "a number as date bound",
    tool: "customer_relationship_manager_search_customers",
    args: { last_contact_date_min: 5 },
    output: error("customer_relationship_manager_search_customers", "'>=' not supported between instances of 'str' and 'int'"),
  },
  {
    what: "a search over a customer added without an email (NeMo Gym's NaN mask)",
    before: [["customer_relationship_manager_add_customer", { customer_name: "Dakota Thomas", assigned_to_email: "nadia.moreau@atlas.com", status: "Lead" }]],
    tool: "customer_relationship_manager_search_customers",
    args: { customer_email: "dakota" },
    output: error("customer_relationship_manager_search_customers", "Cannot mask with non-boolean array containing NA / NaN values"),
  },
  {
    what: "update",
    tool: "customer_relationship_manager_update_customer",
    args: { customer_id: "00000014", field: "status", new_value: "Won" },
    output: "Customer updated successfully.",
  },
  {
    what: "an unknown status",
    tool: "customer_relationship_manager_update_customer",
    args: { customer_id: "00000014", field: "status", new_value: "Closed" },
    output: "Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'",
  },
  {
    what: "an unknown product",
    tool: "customer_relationship_manager_update_customer",
    args: { customer_id: "00000014", field: "product_interest", new_value: "Cars" },
    output: "Product interest not valid. Please choose from: 'Software', 'Hardware', 'Services', 'Consulting', 'Training'",
  },
  {
    what: "an unknown field",
    tool: "customer_relationship_manager_update_customer",
    args: { customer_id: "00000014", field: "priority", new_value: "high" },
    output:
      "Field not valid. Please choose from: 'customer_name', 'assigned_to_email', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'status', 'notes', 'follow_up_by'",
  },
  {
    what: "a missing customer",
    tool: "customer_relationship_manager_update_customer",
    args: { customer_id: "99999999", field: "status", new_value: "Won" },
    output: "Customer not found.",
  },
  {
    what: "add",
    tool: "customer_relationship_manager_add_customer",
    args: { customer_name: "Dakota Thomas", assigned_to_email: "Nadia.Moreau@atlas.com", status: "Lead", customer_email: "D.Thomas@Example.com" },
    output: "00000200",
  },
  {
    what: "the added customer",
    before: [["customer_relationship_manager_add_customer", { customer_name: "Dakota Thomas", assigned_to_email: "Nadia.Moreau@atlas.com", status: "Lead" }]],
    tool: "customer_relationship_manager_search_customers",
    args: { customer_name: "Dakota Thomas", status: "Lead" },
    output: expect.objectContaining({
      customers: [
        {
          customer_id: "00000200",
          assigned_to_email: "nadia.moreau@atlas.com",
          customer_name: "Dakota Thomas",
          customer_email: null,
          customer_phone: null,
          last_contact_date: null,
          product_interest: null,
          status: "Lead",
          follow_up_by: null,
          notes: "",
        },
      ],
    }),
  },
  {
    what: "no status",
    tool: "customer_relationship_manager_add_customer",
    args: { customer_name: "Dakota Thomas", assigned_to_email: "nadia.moreau@atlas.com" },
    output: "Please provide all required fields: customer_name, assigned_to_email, status.",
  },
  { what: "delete", tool: "customer_relationship_manager_delete_customer", args: { customer_id: "00000014" }, output: "Customer deleted successfully." },
  {
    what: "delete a missing customer",
    tool: "customer_relationship_manager_delete_customer",
    args: { customer_id: "99999999" },
    output: "Customer not found.",
  },
  { what: "delete without id", tool: "customer_relationship_manager_delete_customer", args: {}, output: "Customer ID not provided." },
  // any tool
  {
    what: "an unexpected argument",
    tool: "calendar_delete_event",
    args: { event_id: "00000252", force: true },
    output: error("calendar_delete_event", "CalendarTool.delete_event() got an unexpected keyword argument 'force'"),
  },
  {
    what: "null arguments are dropped, as NeMo Gym's route drops None",
    tool: "email_delete_email",
    args: { email_id: "00000259", cc: null },
    output: "Email deleted successfully.",
  },
  {
    what: "a list argument",
    tool: "email_delete_email",
    args: { email_id: ["00000259"] },
    output: error("email_delete_email", "EmailTool.delete_email() argument 'email_id' must be a string, a number, a boolean or null here"),
  },
];

const ROW = fixtureRows(NAME)[0]!;

describe("each tool, in a session's SQLite (workerd) and in memory", () => {
  const tools = new Set(CASES.map((c) => c.tool));
  it("covers all 27 tools", () => {
    expect(tools.size).toBe(27);
  });

  it.each(CASES.map((c) => [c.tool, c.what, c] as const))("%s: %s", async (_tool, _what, c) => {
    // The session is the one the seed opens: its id comes back in the answer's x-session-id header.
    const seeded = await postJson(`${local.url}/v1/environments/${NAME}/seed_session`, ROW);
    expect(seeded.status).toBe(200);
    const headers = { "x-session-id": seeded.headers.get("x-session-id")! };
    const memory = session();
    const calls: [string, Args][] = [...(c.before ?? []), [c.tool, c.args]];
    let sqlite: unknown;
    let inMemory: unknown;
    for (const [tool, args] of calls) {
      const answer = await postJson(`${local.url}/v1/environments/${NAME}/${tool}`, args, headers);
      // A tool's error is an answer for the model, never a failed call.
      expect(answer.status).toBe(200);
      [sqlite, inMemory] = [answer.body.output, memory.call(tool, args)];
      expect(sqlite).toEqual(inMemory);
    }
    expect(sqlite).toEqual(c.output);
  });
});
