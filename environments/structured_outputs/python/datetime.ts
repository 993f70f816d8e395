// Python's datetime.date / datetime.datetime / datetime.time as opaque values, with the range checks their constructors make.
import { PyError, PyOpaque } from "./value.js";

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** datetime.date(year, month, day): ValueError outside the calendar, as Python raises. */
export function pyDate(year: number, month: number, day: number): PyOpaque {
  checkDate(year, month, day);
  return new PyOpaque("date", `datetime.date(${year}, ${month}, ${day})`);
}

function checkDate(year: number, month: number, day: number): void {
  if (year < 1 || year > 9999) throw new PyError("ValueError", `year ${year} is out of range`);
  if (month < 1 || month > 12) throw new PyError("ValueError", "month must be in 1..12");
  if (day < 1 || day > daysInMonth(year, month)) throw new PyError("ValueError", "day is out of range for month");
}

function checkTime(hour: number, minute: number, second: number): void {
  if (hour > 23) throw new PyError("ValueError", "hour must be in 0..23");
  if (minute > 59) throw new PyError("ValueError", "minute must be in 0..59");
  if (second > 59) throw new PyError("ValueError", "second must be in 0..59");
}

export interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  /** Offset from UTC in minutes, or undefined for a naive datetime. */
  offsetMinutes?: number | undefined;
}

/** datetime.datetime(...): the same range checks; a UTC offset must stay within a day. */
export function pyDateTime(parts: DateTimeParts): PyOpaque {
  checkDate(parts.year, parts.month, parts.day);
  checkTime(parts.hour, parts.minute, parts.second);
  const fields = [parts.year, parts.month, parts.day, parts.hour, parts.minute];
  if (parts.second || parts.microsecond) fields.push(parts.second);
  if (parts.microsecond) fields.push(parts.microsecond);
  let tz = "";
  if (parts.offsetMinutes !== undefined) {
    if (Math.abs(parts.offsetMinutes) >= 24 * 60)
      throw new PyError("ValueError", "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24)");
    tz = parts.offsetMinutes === 0 ? ", tzinfo=datetime.timezone.utc" : `, tzinfo=datetime.timezone(datetime.timedelta(seconds=${parts.offsetMinutes * 60}))`;
  }
  return new PyOpaque("datetime", `datetime.datetime(${fields.join(", ")}${tz})`);
}

/** datetime.time(...), as TOML's local times load. */
export function pyTime(hour: number, minute: number, second: number, microsecond: number): PyOpaque {
  checkTime(hour, minute, second);
  const fields = [hour, minute];
  if (second || microsecond) fields.push(second);
  if (microsecond) fields.push(microsecond);
  return new PyOpaque("time", `datetime.time(${fields.join(", ")})`);
}
