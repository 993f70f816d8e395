// The NeMo Gym protocol, declared once and imported by every side: Workers, queue consumers, the CLI.
export * from "./items.js";
export * from "./params.js";
export * from "./response.js";
export * from "./rows.js";
export * from "./errors.js";
export * from "./metrics.js";
export * from "./agents.js";
export * from "./nemo-gym.js";
