// What an environment's Worker entry is made of: its HTTP handler, and the RPC entrypoint and session classes it subclasses.
export { EnvironmentSession } from "./durable.js";
export { EnvironmentEntrypoint, environmentHandler } from "./entrypoint.js";
