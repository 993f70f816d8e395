// NeMo Gym's AnalyticsTool: visit counts per day over date ranges compared as text, visitor lookups, and plots (file names only).
import { compare, equal, inList, type PyValue, str, truthy } from "../python.js";
import type { Row, Tables } from "../tables.js";
import { type Args, type ToolSpec, arg } from "../tool.js";

const PLOTTABLE = [
  "total_visits",
  "session_duration_seconds",
  "user_engaged",
  "visits_direct",
  "visits_referral",
  "visits_search_engine",
  "visits_social_media",
];
const PLOT_TYPES = ["bar", "line", "scatter", "histogram"];
const RANGE = {
  time_min: { type: "string", description: "Start date of the time range. Date format is YYYY-MM-DD" },
  time_max: { type: "string", description: "End date of the time range. Date format is YYYY-MM-DD" },
} as const;

/** data[data["date_of_visit"] >= time_min], then <= time_max: dates compared as text, as pandas compares str cells. */
function inRange(db: Tables, args: Args): Row[] {
  const [timeMin, timeMax] = [arg(args, "time_min"), arg(args, "time_max")];
  let rows = db.rows("analytics_data");
  // pandas leaves NaN cells out of a comparison instead of raising.
  const keep = (cell: PyValue, op: ">=" | "<=", bound: PyValue) => cell !== null && compare(cell, op, bound);
  if (truthy(timeMin)) rows = rows.filter((row) => keep(row.date_of_visit ?? null, ">=", timeMin));
  if (truthy(timeMax)) rows = rows.filter((row) => keep(row.date_of_visit ?? null, "<=", timeMax));
  return rows;
}

/** data.groupby("date_of_visit") then a per-day value, as a dict in the sorted order of the days. */
function perDay(rows: Row[], value: (group: Row[]) => number): Record<string, number> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const day = str(row.date_of_visit ?? null);
    groups.set(day, [...(groups.get(day) ?? []), row]);
  }
  const days = [...groups.keys()].sort((a, b) => (compare(a, "<", b) ? -1 : compare(a, ">", b) ? 1 : 0));
  return Object.fromEntries(days.map((day) => [day, value(groups.get(day)!)]));
}

/** astype(bool): a missing cell (NaN) is true, as bool(nan) is. */
const asBool = (cell: PyValue): boolean => (cell === null ? true : truthy(cell));

export const ANALYTICS_TOOLS: Record<string, ToolSpec> = {
  analytics_get_visitor_information_by_id: {
    method: "AnalyticsTool.get_visitor_information_by_id",
    description: "Returns the analytics data for a given visitor ID.",
    parameters: { visitor_id: { type: "string", description: "ID of the visitor" } },
    required: ["visitor_id"],
    run(db, args) {
      const visitorId = arg(args, "visitor_id");
      if (!truthy(visitorId)) return "Visitor ID not provided.";
      const visits = db.find("analytics_data", "visitor_id", visitorId);
      return visits.length > 0 ? visits : "Visitor not found.";
    },
  },
  analytics_create_plot: {
    method: "AnalyticsTool.create_plot",
    description: "Plots the analytics data for a given time range and value.",
    parameters: {
      ...RANGE,
      value_to_plot: {
        type: "string",
        description:
          "Value to plot. Available values are: 'total_visits', 'session_duration_seconds', 'user_engaged', 'visits_direct', 'visits_referral', 'visits_search_engine', 'visits_social_media'",
      },
      plot_type: { type: "string", description: "Type of plot. Can be 'bar', 'line', 'scatter' or 'histogram'" },
    },
    required: ["time_min", "time_max", "value_to_plot", "plot_type"],
    run(db, args) {
      const [timeMin, timeMax, value, plotType] = ["time_min", "time_max", "value_to_plot", "plot_type"].map((k) => arg(args, k)) as PyValue[];
      if (!truthy(timeMin)) return "Start date not provided.";
      if (!truthy(timeMax)) return "End date not provided.";
      if (!inList(value!, PLOTTABLE)) {
        return `Value to plot must be one of ${PLOTTABLE.map((v) => `'${v}'`).join(", ")}`;
      }
      if (!inList(plotType!, PLOT_TYPES)) return "Plot type must be one of 'bar', 'line', 'scatter', or 'histogram'";
      // Nothing is drawn: the plot is the file name, kept in the session's list of plots (which verify compares).
      const filePath = `plots/${str(timeMin!)}_${str(timeMax!)}_${str(value!)}_${str(plotType!)}.png`;
      db.append("plots", { file_path: filePath });
      return filePath;
    },
  },
  analytics_total_visits_count: {
    method: "AnalyticsTool.total_visits_count",
    description: "Returns the total number of visits within a specified time range.",
    parameters: RANGE,
    required: [],
    run: (db, args) => perDay(inRange(db, args), (group) => group.length),
  },
  analytics_engaged_users_count: {
    method: "AnalyticsTool.engaged_users_count",
    description: "Returns the number of engaged users within a specified time range.",
    parameters: RANGE,
    required: [],
    run: (db, args) => perDay(inRange(db, args), (group) => group.filter((row) => asBool(row.user_engaged ?? null)).length),
  },
  analytics_traffic_source_count: {
    method: "AnalyticsTool.traffic_source_count",
    description: "Returns the number of visits from a specific traffic source within a specified time range.",
    parameters: {
      ...RANGE,
      traffic_source: {
        type: "string",
        description: "Traffic source to filter the visits. Available values are: 'direct', 'referral', 'search engine', 'social media'",
      },
    },
    required: [],
    run(db, args) {
      const source = arg(args, "traffic_source");
      const rows = inRange(db, args);
      if (!truthy(source)) return perDay(rows, (group) => group.length);
      return perDay(rows, (group) => group.filter((row) => equal(row.traffic_source ?? null, source)).length);
    },
  },
  analytics_get_average_session_duration: {
    method: "AnalyticsTool.get_average_session_duration",
    description: "Returns the average session duration within a specified time range.",
    parameters: RANGE,
    required: [],
    run(db, args) {
      // Without either bound pandas converts the table's own column to float (no copy was made), so later visitor
      // lookups show the durations as numbers; with a bound only the filtered copy changes.
      if (!truthy(arg(args, "time_min")) && !truthy(arg(args, "time_max"))) db.toFloat("analytics_data", "session_duration_seconds");
      return perDay(inRange(db, args), (group) => {
        const durations = group.map((row) => Number(row.session_duration_seconds ?? Number.NaN)).filter((d) => !Number.isNaN(d));
        return durations.reduce((sum, d) => sum + d, 0) / durations.length;
      });
    },
  },
};
