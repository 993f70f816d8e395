// Weather tasks (NeMo Gym's example_single_tool_call, example_tool_call_multireward): find cities, call, report.
import { describeOutput, toolProperties, type Conversation, type ToolInfo } from "../conversation.js";
import { capitalisedRuns, isRecord, type Span } from "../text.js";
import { outputOf, type Plan, type PlannedCall } from "./types.js";

// Nicknames people type instead of the city's name.
const ABBREVIATIONS: Record<string, string> = {
  sf: "San Francisco",
  sfo: "San Francisco",
  nyc: "New York",
  ny: "New York",
  la: "Los Angeles",
  dc: "Washington",
  philly: "Philadelphia",
  vegas: "Las Vegas",
  nola: "New Orleans",
  atl: "Atlanta",
  chi: "Chicago",
};

// Well-known cities found even when typed in lower case.
const CITIES = [
  "San Francisco",
  "New York",
  "Los Angeles",
  "Seattle",
  "London",
  "Tokyo",
  "Paris",
  "Chicago",
  "Boston",
  "Berlin",
  "Austin",
  "Denver",
  "Miami",
  "Toronto",
  "Sydney",
  "Madrid",
  "Rome",
  "Beijing",
  "Mumbai",
  "Singapore",
  "San Diego",
  "Portland",
  "Dallas",
  "Houston",
];

// Capitalised words that start sentences or name things other than cities.
const NOT_PLACES = new Set(
  (
    "what what's whats how how's hows is are was tell give get show check find please can could " +
    "would will should do does did i i'm im hi hello hey the a an it it's weather forecast today " +
    "tonight tomorrow now in at for of and or monday tuesday wednesday thursday friday saturday " +
    "sunday us usa uk eu celsius fahrenheit use mcp"
  ).split(" "),
);

const MAX_CITIES = 3;

/** The weather tool: named like weather, with a city/location string argument (or one string argument). */
function weatherTool(tools: ToolInfo[]): { tool: ToolInfo; param: string } | null {
  for (const tool of tools) {
    if (!/weather|forecast/i.test(tool.name)) continue;
    const { properties, required } = toolProperties(tool);
    const names = Object.keys(properties);
    const param =
      names.find((n) => /city|location|place|town/i.test(n)) ??
      (required.length === 1 ? required[0] : undefined) ??
      (names.length === 1 ? names[0] : undefined);
    if (param) return { tool, param };
  }
  return null;
}

/** Cities named in the text, in order of appearance, at most MAX_CITIES. */
export function findCities(text: string): string[] {
  const found: Span[] = [];
  for (const match of text.matchAll(/[\p{L}']+/gu)) {
    const city = ABBREVIATIONS[match[0].toLowerCase()];
    if (city) found.push({ text: city, index: match.index });
  }
  const lower = text.toLowerCase();
  for (const city of CITIES) {
    const at = lower.search(new RegExp(`\\b${city.toLowerCase()}\\b`));
    if (at >= 0) found.push({ text: text.slice(at, at + city.length), index: at });
  }
  for (const run of capitalisedRuns(text)) {
    // Drop leading sentence words ("What's", "Tell") so "Weather in Paris" style runs still work.
    const parts = run.text.split(/\s+/);
    let skip = 0;
    while (skip < parts.length && NOT_PLACES.has(parts[skip]!.toLowerCase())) skip += 1;
    const rest = parts.slice(skip);
    if (rest.length === 0) continue;
    const offset = run.text.indexOf(rest[0]!);
    found.push({ text: rest.join(" "), index: run.index + offset });
  }
  found.sort((a, b) => a.index - b.index);

  const cities: string[] = [];
  for (const span of found) {
    // Title-case lower-case gazetteer hits but keep the user's spelling otherwise ("as named").
    const name = span.text === span.text.toLowerCase() ? titleCase(span.text) : span.text;
    const duplicate = cities.some((c) => c.toLowerCase() === name.toLowerCase());
    // A shorter hit inside a longer one ("York" in "New York") is not another city.
    const overlaps = found.some(
      (o) => o !== span && o.index <= span.index && o.index + o.text.length >= span.index + span.text.length && o.text.length > span.text.length,
    );
    if (!duplicate && !overlaps) cities.push(name);
  }
  return cities.slice(0, MAX_CITIES);
}

function titleCase(text: string): string {
  return text.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

function weatherAnswer(conversation: Conversation, calls: PlannedCall[]): string {
  const lines = calls.map((call) => {
    const output = outputOf(conversation, call);
    const city = Object.values(call.arguments)[0];
    // A tool that answers a sentence (example_single_tool_call's weather_description, example_mcp_weather's weather) is quoted.
    for (const key of ["weather_description", "weather"]) {
      if (isRecord(output) && typeof output[key] === "string") return output[key];
    }
    return `The weather in ${String(city)}: ${describeOutput(output)}`;
  });
  return lines.join(" ");
}

export function planWeather(conversation: Conversation): Plan | null {
  const found = weatherTool(conversation.tools);
  if (!found) return null;
  const cities = findCities(conversation.user);
  if (cities.length === 0) {
    return {
      batches: [],
      answer: () => "Which city would you like the weather for? Tell me the city name and I will look it up.",
    };
  }
  const calls = cities.map((city) => ({ name: found.tool.name, arguments: { [found.param]: city } }));
  return { batches: [calls], answer: (c) => weatherAnswer(c, calls) };
}
