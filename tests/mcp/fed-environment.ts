// The MCP tests' fed environment's Worker (tests/mcp/fed-definition.ts).
import * as sdk from "../../environments/sdk/worker.js";
import { fed } from "./fed-definition.js";

const environment = fed("mcp_fed");
export default sdk.environmentHandler(environment);
export class EnvironmentEntrypoint extends sdk.EnvironmentEntrypoint {
  protected readonly environment = environment;
}
export class EnvironmentSession extends sdk.EnvironmentSession {
  protected readonly environment = environment;
}
