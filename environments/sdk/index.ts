// The environment SDK: define an environment's tools, verifier and state; everything else is derived.
export { defineEnvironment } from "./define.js";
export type { Environment, SimpleEnvironment, GymnasiumEnvironment, ToolContext, SessionState, VerifyOutcome } from "./types.js";
export { defineGymnasiumEnvironment, extractText, actionCalls, toolOutput, type GymnasiumReset, type GymnasiumStep, type GymnasiumRow } from "./gymnasium.js";
export { aggregateMetrics, passAtK, groupByTask, highestKMetrics } from "../../metrics/index.js";
export { allOutputText, functionCalls, outputText, lastAssistantText } from "./response-helpers.js";
export { JudgeError, type Judge } from "./judge.js";
export { z } from "zod";
// Python semantics environments ported from NeMo Gym share: `re` patterns, int()/float()/repr(float), truthiness, ==, str methods.
export { compilePythonRegex, isPythonRegexFailure, PythonRegexError, UnsupportedPythonRegex } from "./python/regex.js";
export { parsePyFloat, parsePyInt, pyFloatRepr } from "./python/numbers.js";
export { pyEqual, pyTruthy } from "./python/values.js";
export { pyLen, pySplit } from "./python/text.js";
export { pyJsonLoads, PythonJsonDecodeError } from "./python/json.js";
export { inProcessEnvironment, type InProcessOptions } from "./in-process.js";
