// Port of NeMo Gym's calendar grader (resources_servers/calendar/utils.py): one JSON list of events against the expected state.
import { PyError, item, jsonLoads, pyEqual, pyInt, pyNumber, pyStr, strip, type Json } from "./python.js";

/** Minutes after midnight of "14:30", "2pm" or "2:30pm" (lowercase am/pm only, as NeMo Gym). */
export function timeToMinutes(value: Json): number {
  const time = strip(value);
  // A 12-hour clock whenever "am" (checked first) or "pm" occurs anywhere; every occurrence is removed before int().
  const suffix = time.includes("am") ? "am" : time.includes("pm") ? "pm" : undefined;
  if (suffix) {
    const offset = suffix === "pm" ? 12 * 60 : 0;
    const rest = time.replaceAll(suffix, "");
    if (!time.includes(":")) {
      const hour = pyInt(rest);
      return (hour !== 12 ? hour * 60 : 0) + offset;
    }
    const [hour, minute] = twoInts(rest);
    return (hour !== 12 ? hour * 60 : 0) + offset + minute;
  }
  const [hours, minutes] = twoInts(time);
  return hours * 60 + minutes;
}

/** `a, b = map(int, text.split(":"))`: exactly two parts, each an int. */
function twoInts(text: string): [number, number] {
  const parts = text.split(":").map(pyInt);
  if (parts.length !== 2) throw new PyError("ValueError", `expected 2 values to unpack, got ${parts.length}`);
  return [parts[0]!, parts[1]!];
}

// The first "[ … { … } … ]" in the text: a list holding at least one object, objects without nested braces.
const JSON_LIST = /\[(?:[^[\]]|\{[^}]*\})*\{(?:[^[\]]|\{[^}]*\})*\}(?:[^[\]]|\{[^}]*\})*\]/;

/** The first JSON list of objects in the text, or null when there is none or it is not valid JSON. */
export function extractJsonList(text: string): Json | null {
  const match = JSON_LIST.exec(text);
  if (!match) return null;
  try {
    return jsonLoads(match[0]);
  } catch {
    // Text that looks like a list but is not valid JSON is no list (the doc above): the grader scores its absence.
    return null;
  }
}

function isConflicting(events: Json[], check: Json, exclude: Json): boolean {
  const start = timeToMinutes(item(check, "start_time"));
  const end = start + pyNumber(item(check, "duration"));
  for (const existing of events) {
    // NeMo Gym skips every event *equal* to the one checked (dict ==), so identical duplicates never conflict.
    if (pyEqual(existing, exclude)) continue;
    const existingStart = timeToMinutes(item(existing, "start_time"));
    const existingEnd = existingStart + pyNumber(item(existing, "duration"));
    if (!(end <= existingStart || start >= existingEnd)) return true;
  }
  return false;
}

function isConstraintSatisfied(event: Json, expected: Json): boolean {
  if (!pyEqual(item(event, "duration"), item(expected, "duration"))) return false;
  const minTime = timeToMinutes(item(expected, "min_time"));
  const maxTime = timeToMinutes(item(expected, "max_time"));
  const start = timeToMinutes(item(event, "start_time"));
  const end = start + pyNumber(item(event, "duration"));
  if (start < minTime || end > maxTime) return false;

  const constraint = item(expected, "constraint");
  if (constraint === null) return true;
  if (typeof constraint !== "string") throw new PyError("AttributeError", "constraint has no attribute 'startswith'");
  if (constraint.startsWith("before ")) return end <= timeToMinutes(constraint.replaceAll("before ", ""));
  if (constraint.startsWith("after ")) return start >= timeToMinutes(constraint.replaceAll("after ", ""));
  if (constraint.startsWith("between ")) {
    const parts = constraint.replaceAll("between ", "").split(" and ");
    if (parts.length !== 2) throw new PyError("ValueError", `Invalid 'between' constraint format: ${constraint}`);
    return start >= timeToMinutes(parts[0]!) && end <= timeToMinutes(parts[1]!);
  }
  if (constraint.startsWith("at ")) return start === timeToMinutes(constraint.replaceAll("at ", ""));
  // An unknown constraint text is satisfied.
  return true;
}

export type GradeReason =
  | "think_found"
  | "pass"
  | "no_json_list"
  | "different_number_of_events"
  | "conflicting_events"
  | "constraint_violated"
  | "error_in_grading";

/** grade_assistant_response: (1, "pass") or (0, why). */
export function gradeAssistantResponse(response: string, expectedState: { [eventId: string]: Json }): [0 | 1, GradeReason] {
  if (response.includes("<think>")) return [0, "think_found"];
  if (Object.keys(expectedState).length === 0) return [1, "pass"];
  try {
    const calendar = extractJsonList(response);
    if (!Array.isArray(calendar) || calendar.length === 0) return [0, "no_json_list"];

    // Later events with the same id replace earlier ones, as in a Python dict.
    const byId = new Map<string, Json>();
    for (const event of calendar) byId.set(pyStr(item(event, "event_id")), event);
    if (byId.size !== Object.keys(expectedState).length) return [0, "different_number_of_events"];

    for (const event of calendar) if (isConflicting(calendar, event, event)) return [0, "conflicting_events"];

    for (const [eventId, expected] of Object.entries(expectedState)) {
      if (!byId.has(eventId)) throw new PyError("KeyError", `'${eventId}'`);
      if (!isConstraintSatisfied(byId.get(eventId)!, expected)) return [0, "constraint_violated"];
    }
  } catch {
    // NeMo Gym's bare `except:` turns any failure while grading into a zero.
    return [0, "error_in_grading"];
  }
  return [1, "pass"];
}
