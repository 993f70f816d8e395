// An environment Worker's variables, parsed once per isolate.
import { configCache, EnvironmentVars } from "../../contracts/config.js";

export const environmentConfig = configCache(EnvironmentVars, "environment");
