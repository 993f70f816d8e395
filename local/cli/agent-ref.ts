// Which environment a NeMo Gym agent name means, for the CLI: the agent's own rule, imported here once.
export { environmentFromAgentName } from "../../functions/agent/resolve.js";
