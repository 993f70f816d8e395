// One JSON line per event for the Workers' logs, silenced by a flag (never a token, a key or a body in it).

export type LogFields = Record<string, string | number | boolean | undefined>;

export function logLine(enabled: boolean, fields: LogFields): void {
  // The Workers runtime collects console output as the Worker's log.
  if (enabled) console.log(JSON.stringify(fields));
}
