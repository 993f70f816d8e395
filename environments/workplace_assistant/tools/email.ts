// NeMo Gym's EmailTool: look up, search, send, delete, forward and reply to emails; every message it returns, kept word for word.
import { pySplit } from "../../sdk/index.js";
import { paginate, pySlice } from "../pagination.js";
import { PyError, type PyValue, inString, lower, nextId, str, truthy } from "../python.js";
import type { Row, Tables } from "../tables.js";
import { compareTimestamps, dateOf, toTimestamp } from "../timestamp.js";
import { type Args, type ToolSpec, arg } from "../tool.js";

/** NeMo Gym's clock: every email sent in a session is stamped str(pd.to_datetime("2023-11-30T23:59:00")). */
export const SENT_DATETIME = "2023-11-30 23:59:00";

/** Runs `body` as a method whose `try: … except Exception as e: return f"{prefix}: {e}"` wraps it. */
function caught(prefix: string, body: () => unknown): unknown {
  try {
    return body();
  } catch (error) {
    if (error instanceof PyError) return `${prefix}: ${error.message}`;
    throw error;
  }
}

const exists = (db: Tables, emailId: PyValue) => db.find("emails", "email_id", emailId).length > 0;

/** The recipient check send_email and forward_email make before their try block (so its TypeError escapes). */
const invalidRecipient = (recipient: PyValue) => !inString("@", recipient) || !inString(".", recipient);

function sendEmail(db: Tables, recipient: PyValue, subject: PyValue, body: PyValue): string {
  if (!truthy(recipient) || !truthy(subject) || !truthy(body)) return "Recipient, subject, or body not provided.";
  if (invalidRecipient(recipient)) return "Invalid recipient email address.";
  return caught("Error sending email", () => {
    const to = lower(recipient);
    const ids = db.rows("emails").map((row) => row.email_id ?? null);
    // str(int(df["email_id"].max()) + 1), not zero-padded: "500" then outranks "00000499" as text, so ids still grow.
    const emailId = ids.length === 0 ? "1" : nextId(ids);
    db.append("emails", {
      email_id: emailId,
      "inbox/outbox": "outbox",
      "sender/recipient": to,
      subject,
      sent_datetime: SENT_DATETIME,
      body,
    });
    return "Email sent successfully.";
  }) as string;
}

function searchEmails(db: Tables, args: Args): unknown {
  return caught("Error searching emails", () => {
    const words = pySplit(lower(arg(args, "query", "")));
    const [dateMin, dateMax] = [arg(args, "date_min"), arg(args, "date_max")];
    let emails = db.rows("emails").filter((row) => {
      const combined = `${str(row.subject ?? null, "nan")} ${str(row.body ?? null, "nan")} ${str(row["sender/recipient"] ?? null, "nan")}`.toLowerCase();
      return words.every((word) => combined.includes(word));
    });
    // Newest first; emails sent at the same moment keep the table's order (pandas' sort leaves ties unspecified).
    const sent = new Map(emails.map((row) => [row, toTimestamp(row.sent_datetime ?? null)]));
    emails = emails
      .map((row, i) => [row, i] as const)
      .sort(([a, i], [b, j]) => compareTimestamps(sent.get(b)!, sent.get(a)!) || i - j)
      .map(([row]) => row);
    const day = (row: Row) => dateOf(sent.get(row)!);
    if (truthy(dateMin)) emails = emails.filter((row) => day(row) >= dateOf(toTimestamp(dateMin)));
    if (truthy(dateMax)) emails = emails.filter((row) => day(row) <= dateOf(toTimestamp(dateMax)));
    const page = paginate(emails.length, arg(args, "page", 1), arg(args, "page_size", 5));
    if (emails.length === 0) return "No emails found.";
    return {
      emails: pySlice(emails, page.start, page.end),
      pagination: { total_emails: emails.length, page: page.page, page_size: page.pageSize, total_pages: page.totalPages },
    };
  });
}

export const EMAIL_TOOLS: Record<string, ToolSpec> = {
  email_get_email_information_by_id: {
    method: "EmailTool.get_email_information_by_id",
    description: "Retrieves specific details of an email by its ID.",
    parameters: {
      email_id: { type: "string", description: "Unique ID of the email" },
      field: {
        type: "string",
        description: "Specific field to return. Available fields: 'email_id', 'inbox/outbox', 'sender/recipient', 'subject', 'sent_datetime', 'body'",
      },
    },
    required: ["email_id", "field"],
    run(db, args) {
      const [emailId, field] = [arg(args, "email_id"), arg(args, "field")];
      if (!truthy(emailId)) return "Email ID not provided.";
      if (!truthy(field)) return "Field not provided.";
      return caught("Error retrieving email information", () => {
        const [email] = db.find("emails", "email_id", emailId);
        if (!email) return "Email not found.";
        if (typeof field === "string" && Object.hasOwn(email, field)) return { [field]: email[field] };
        return `Field '${str(field)}' not found. Available fields: ${Object.keys(email).join(", ")}`;
      });
    },
  },
  email_search_emails: {
    method: "EmailTool.search_emails",
    description:
      "Searches for emails matching the given query across subject, body, or sender fields. The function matches an email if all words in the query appear in any of these fields.",
    parameters: {
      query: { type: "string", description: "Search query, matching terms in subject, body, or sender/recipient fields" },
      date_min: { type: "string", description: "Lower date limit for the email's sent date (inclusive). Format: YYYY-MM-DD" },
      date_max: { type: "string", description: "Upper date limit for the email's sent date (inclusive). Format: YYYY-MM-DD" },
      page: { type: "integer", description: "Page number of results to return" },
      page_size: { type: "integer", description: "Number of emails per page" },
    },
    required: [],
    run: searchEmails,
  },
  email_send_email: {
    method: "EmailTool.send_email",
    description: "Sends an email to the specified recipient.",
    parameters: {
      recipient: { type: "string", description: "Email address of the recipient" },
      subject: { type: "string", description: "Subject line of the email" },
      body: { type: "string", description: "Body content of the email" },
    },
    required: ["recipient", "subject", "body"],
    run: (db, args) => sendEmail(db, arg(args, "recipient"), arg(args, "subject"), arg(args, "body")),
  },
  email_delete_email: {
    method: "EmailTool.delete_email",
    description: "Deletes an email by its ID.",
    parameters: { email_id: { type: "string", description: "Unique ID of the email to be deleted" } },
    required: ["email_id"],
    run(db, args) {
      const emailId = arg(args, "email_id");
      if (!truthy(emailId)) return "Email ID not provided.";
      if (!exists(db, emailId)) return "Email not found.";
      db.remove("emails", "email_id", emailId);
      return "Email deleted successfully.";
    },
  },
  email_forward_email: {
    method: "EmailTool.forward_email",
    description: "Forwards an email to the specified recipient.",
    parameters: {
      email_id: { type: "string", description: "Unique ID of the email to be forwarded" },
      recipient: { type: "string", description: "Email address of the recipient" },
    },
    required: ["email_id", "recipient"],
    run(db, args) {
      const [emailId, recipient] = [arg(args, "email_id"), arg(args, "recipient")];
      if (!truthy(emailId) || !truthy(recipient)) return "Email ID or recipient not provided.";
      if (invalidRecipient(recipient)) return "Invalid recipient email address.";
      return caught("Error forwarding email", () => {
        if (!exists(db, emailId)) return "Email not found.";
        const to = lower(recipient);
        const email = db.find("emails", "email_id", emailId)[0]!;
        const result = sendEmail(db, to, `FW: ${str(email.subject ?? null, "nan")}`, email.body ?? null);
        if (result.includes("Error") || result.includes("Invalid")) return result;
        return "Email forwarded successfully.";
      });
    },
  },
  email_reply_email: {
    method: "EmailTool.reply_email",
    description: "Replies to an email by its ID.",
    parameters: {
      email_id: { type: "string", description: "Unique ID of the email to be replied" },
      body: { type: "string", description: "Body content of the email" },
    },
    required: ["email_id", "body"],
    run(db, args) {
      const [emailId, body] = [arg(args, "email_id"), arg(args, "body")];
      if (!truthy(emailId) || !truthy(body)) return "Email ID or body not provided.";
      return caught("Error replying to email", () => {
        if (!exists(db, emailId)) return "Email not found.";
        const email = db.find("emails", "email_id", emailId)[0]!;
        // An outbox email is answered to the person it went to: the same column either way.
        const result = sendEmail(db, email["sender/recipient"] ?? null, `RE: ${str(email.subject ?? null, "nan")}`, body);
        if (result.includes("Error") || result.includes("Invalid")) return result;
        return "Email replied successfully.";
      });
    },
  },
};
