// The probe again, run with a short SESSION_TTL_SECONDS so its sessions and tokens expire within a test.
import * as sdk from "../../environments/sdk/worker.js";
import { probe } from "./probe-definition.js";

const environment = probe("mcp_probe_short");
export default sdk.environmentHandler(environment);
export class EnvironmentEntrypoint extends sdk.EnvironmentEntrypoint {
  protected readonly environment = environment;
}
export class EnvironmentSession extends sdk.EnvironmentSession {
  protected readonly environment = environment;
}
