// The environment SDK: define an environment's tools, verifier and state; everything else is derived.
export { defineEnvironment, type Environment, type ToolContext, type SessionState, type VerifyOutcome } from "./define.js";
export {
  defineGymnasiumEnvironment,
  extractText,
  actionCalls,
  toolOutput,
  type GymnasiumEnvironment,
  type GymnasiumReset,
  type GymnasiumStep,
  type GymnasiumRow,
} from "./gymnasium.js";
export { aggregateMetrics, passAtK, groupByTask, highestKMetrics } from "./metrics.js";
export { allOutputText, functionCalls, outputText, lastAssistantText } from "./response-helpers.js";
export { JudgeError, type Judge } from "./judge.js";
export { z } from "zod";
