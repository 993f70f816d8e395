// The chaos environment's name, shared by its Worker code and the tests (this file imports nothing: it is bundled into a Worker).
export const CHAOS_ENVIRONMENT = "chaos_tools";
