// NeMo Gym's CalendarTool: look up, search, create, delete and update events (8-digit ids, start times read by pd.Timestamp).
import { pyLen } from "../../sdk/index.js";
import { containsMask } from "../pandas.js";
import { paginate, pySlice } from "../pagination.js";
import { PyError, type PyValue, equal, inList, int, lower, nextId, str, truthy, zfill } from "../python.js";
import type { Row } from "../tables.js";
import { compareTimestamps, type Timestamp, toTimestamp } from "../timestamp.js";
import { type ToolSpec, arg } from "../tool.js";

const INFORMATION_FIELDS = ["event_id", "event_name", "participant_email", "event_start", "duration"];
const UPDATABLE_FIELDS = ["event_name", "participant_email", "event_start", "duration"];
const INVALID_ID = "Invalid event ID format. Expected 8-digit ID.";
const INVALID_START = "Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.";

/** isinstance(event_id, str) and len(event_id) == 8 and event_id.isdigit() */
const isEventId = (id: PyValue): boolean => typeof id === "string" && pyLen(id) === 8 && /^\p{Nd}+$/u.test(id);

/** pd.Timestamp(value), where only a ValueError is caught (a TypeError reaches the model as NeMo Gym's route reports it). */
function readsAsTimestamp(value: PyValue): boolean {
  try {
    toTimestamp(value);
    return true;
  } catch (error) {
    if (error instanceof PyError && error.type === "ValueError") return false;
    throw error;
  }
}

/** int(duration) > 0, or the message create_event and update_event give. */
function durationProblem(duration: PyValue): string | null {
  try {
    return int(duration) <= 0 ? "Duration must be a positive number of minutes." : null;
  } catch (error) {
    if (error instanceof PyError && error.type === "ValueError") return "Invalid duration format. Expected a number of minutes.";
    throw error;
  }
}

/** pd.Timestamp(time) for a search bound, or the message for a ValueError. */
function bound(value: PyValue, name: string): Timestamp | string {
  try {
    return toTimestamp(value);
  } catch (error) {
    if (error instanceof PyError && error.type === "ValueError") return `Invalid ${name} format. Expected YYYY-MM-DD HH:MM:SS.`;
    throw error;
  }
}

const startOf = (event: Row) => toTimestamp(event.event_start ?? null);

export const CALENDAR_TOOLS: Record<string, ToolSpec> = {
  calendar_get_event_information_by_id: {
    method: "CalendarTool.get_event_information_by_id",
    description: "Returns the event for a given ID.",
    parameters: {
      event_id: { type: "string", description: "8-digit ID of the event" },
      field: { type: "string", description: "Field to return. Available fields are: 'event_id', 'event_name', 'participant_email', 'event_start', 'duration'" },
    },
    required: ["event_id", "field"],
    run(db, args) {
      const [eventId, field] = [arg(args, "event_id"), arg(args, "field")];
      if (!truthy(eventId)) return "Event ID not provided.";
      if (!truthy(field)) return "Field not provided.";
      if (!isEventId(eventId)) return INVALID_ID;
      if (!inList(field, INFORMATION_FIELDS)) return `Invalid field. Available fields are: ${INFORMATION_FIELDS.join(", ")}`;
      const [event] = db.find("calendar_events", "event_id", eventId);
      if (!event) return "Event not found.";
      return Object.hasOwn(event, field as string) ? { [field as string]: event[field as string] } : "Field not found.";
    },
  },
  calendar_search_events: {
    method: "CalendarTool.search_events",
    description: "Returns the events for a given query with pagination support.",
    parameters: {
      query: { type: "string", description: "Query to search for. Terms will be matched in the event_name and participant_email fields" },
      time_min: { type: "string", description: "Lower bound (inclusive) for an event's end time to filter by. Format: YYYY-MM-DD HH:MM:SS" },
      time_max: { type: "string", description: "Upper bound (inclusive) for an event's start time to filter by. Format: YYYY-MM-DD HH:MM:SS" },
      page: { type: "integer", description: "Page number of results to return" },
      page_size: { type: "integer", description: "Number of events per page" },
    },
    required: [],
    run(db, args) {
      // Each bound, when given, is read first; a ValueError ends the call with the tool's own message.
      const bounds: (Timestamp | null)[] = [];
      for (const name of ["time_min", "time_max"]) {
        const value = arg(args, name);
        const read = truthy(value) ? bound(value, name) : null;
        if (typeof read === "string") return read;
        bounds.push(read);
      }
      const [from, to] = bounds;
      const query = arg(args, "query", "");
      const rows = db.rows("calendar_events");
      const byName = containsMask(rows, "event_name", query, true);
      const byParticipant = containsMask(rows, "participant_email", query, true);
      let events = rows.filter((_, i) => byName[i] || byParticipant[i]);
      if (from) events = events.filter((event) => compareTimestamps(startOf(event), from) >= 0);
      if (to) events = events.filter((event) => compareTimestamps(startOf(event), to) <= 0);
      if (events.length === 0) return "No events found.";
      // list.sort(key=pd.Timestamp, reverse=True) is stable: equal starts keep their order.
      const starts = new Map(events.map((event) => [event, startOf(event)]));
      events = events
        .map((event, i) => [event, i] as const)
        .sort(([a, i], [b, j]) => compareTimestamps(starts.get(b)!, starts.get(a)!) || i - j)
        .map(([e]) => e);
      const page = paginate(events.length, arg(args, "page", 1), arg(args, "page_size", 5));
      return {
        events: pySlice(events, page.start, page.end),
        pagination: { total_events: events.length, page: page.page, page_size: page.pageSize, total_pages: page.totalPages },
      };
    },
  },
  calendar_create_event: {
    method: "CalendarTool.create_event",
    description: "Creates a new event.",
    parameters: {
      event_name: { type: "string", description: "Name of the event" },
      participant_email: { type: "string", description: "Email of the participant" },
      event_start: { type: "string", description: "Start time of the event. Format: YYYY-MM-DD HH:MM:SS" },
      duration: { type: "string", description: "Duration of the event in minutes" },
    },
    required: ["event_name", "participant_email", "event_start", "duration"],
    run(db, args) {
      const [name, participant, start, duration] = ["event_name", "participant_email", "event_start", "duration"].map((k) => arg(args, k)) as PyValue[];
      if (!truthy(name)) return "Event name not provided.";
      if (!truthy(participant)) return "Participant email not provided.";
      if (!truthy(start)) return "Event start not provided.";
      if (!truthy(duration)) return "Event duration not provided.";
      if (!readsAsTimestamp(start!)) return INVALID_START;
      const problem = durationProblem(duration!);
      if (problem) return problem;
      const email = lower(participant!);
      const eventId = zfill(nextId(db.rows("calendar_events").map((row) => row.event_id ?? null)), 8);
      db.append("calendar_events", { event_id: eventId, event_name: name!, participant_email: email, event_start: start!, duration: duration! });
      return eventId;
    },
  },
  calendar_delete_event: {
    method: "CalendarTool.delete_event",
    description: "Deletes an event.",
    parameters: { event_id: { type: "string", description: "8-digit ID of the event" } },
    required: ["event_id"],
    run(db, args) {
      const eventId = arg(args, "event_id");
      if (!truthy(eventId)) return "Event ID not provided.";
      if (!isEventId(eventId)) return INVALID_ID;
      if (db.find("calendar_events", "event_id", eventId).length === 0) return "Event not found.";
      db.remove("calendar_events", "event_id", eventId);
      return "Event deleted successfully.";
    },
  },
  calendar_update_event: {
    method: "CalendarTool.update_event",
    description: "Updates an event.",
    parameters: {
      event_id: { type: "string", description: "8-digit ID of the event" },
      field: { type: "string", description: "Field to update. Available fields are: 'event_name', 'participant_email', 'event_start', 'duration'" },
      new_value: { type: "string", description: "New value for the field" },
    },
    required: ["event_id", "field", "new_value"],
    run(db, args) {
      const [eventId, field] = [arg(args, "event_id"), arg(args, "field")];
      let value = arg(args, "new_value");
      if (!truthy(eventId) || !truthy(field) || !truthy(value)) return "Event ID, field, or new value not provided.";
      if (!isEventId(eventId)) return INVALID_ID;
      if (!inList(field, UPDATABLE_FIELDS)) return `Invalid field. Available fields are: ${UPDATABLE_FIELDS.join(", ")}`;
      if (equal(field, "event_start") && !readsAsTimestamp(value)) return INVALID_START;
      if (equal(field, "duration")) {
        const problem = durationProblem(value);
        if (problem) return problem;
      }
      if (db.find("calendar_events", "event_id", eventId).length === 0) return "Event not found.";
      if (equal(field, "participant_email")) value = lower(value);
      db.update("calendar_events", "event_id", eventId, str(field), value);
      return "Event updated successfully.";
    },
  },
};
