// The MCP tests' probe environment's Worker (tests/mcp/probe-definition.ts).
import * as sdk from "../../environments/sdk/worker.js";
import { probe } from "./probe-definition.js";

const environment = probe("mcp_probe");
export default sdk.environmentHandler(environment);
export class EnvironmentEntrypoint extends sdk.EnvironmentEntrypoint {
  protected readonly environment = environment;
}
export class EnvironmentSession extends sdk.EnvironmentSession {
  protected readonly environment = environment;
}
