// Port of NeMo Gym's conversational_tool_use_simulation: an LLM-simulated customer, simulated tools, a judge per step.
import { EdgegymError } from "../../protocol/index.js";
import { defineEnvironment, type ToolContext, z } from "../sdk/index.js";
import { type Conversation, ConversationState, failureLabelFor, InvalidReason, normalizedDoc, normalizedParams, recordFailure, Task } from "./state.js";
import { conversationKeyMetrics, conversationMetrics } from "./metrics.js";
import { seedConversation } from "./seed.js";
import { executeToolCall, nextUserMessage, recordOutputs, recordStepLimit, sessionResume } from "./turns.js";
import { type VerifyConfig, verifyConversation } from "./verify.js";

/** NeMo Gym's configs/conversational_tool_use_simulation.yaml (generation_attempts 3, message-level verification). */
export const DEFAULT_CONFIG: VerifyConfig = {
  generationAttempts: 3,
  enableLlmJudge: true,
  enableTermination: true,
  enforceTransferGroundTruth: true,
  verificationType: "message",
};

/** The conversation loop's cap on policy responses (the agent's max_agent_steps). */
export const MAX_AGENT_STEPS = 50;

type Ctx = ToolContext<Conversation>;

async function conversation(ctx: Ctx): Promise<Conversation> {
  const state = await ctx.state.get();
  if (!state) throw new EdgegymError(400, "bad_request", "Session not initialized. Call /seed_session first.");
  return state;
}

function modelsOf(ctx: Ctx) {
  if (!ctx.models) throw new Error("this environment needs ctx.models (the user, tool_simulator and judge roles)");
  return ctx.models;
}

/** Runs a move on the session's conversation and stores what it changed. */
async function moving<T>(ctx: Ctx, move: (state: Conversation) => T | Promise<T>): Promise<T> {
  const state = await conversation(ctx);
  const answer = await move(state);
  await ctx.state.set(state);
  return answer;
}

const Response = z.record(z.string(), z.unknown()).nullish();
const OutputIndex = z.number().int().min(0).nullish();
const Call = z.object({ tool_name: z.string(), tool_call_id: z.string(), arguments: z.string(), response_output_index: OutputIndex });
const Output = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), content: z.string(), response_output_index: OutputIndex }),
  Call.extend({ type: z.literal("function_call") }),
]);

export function conversationalToolUse(config: VerifyConfig = DEFAULT_CONFIG) {
  return defineEnvironment({
    name: "conversational_tool_use_simulation",
    description:
      "A customer-service conversation: a simulated customer (model role `user`), simulated tool results (`tool_simulator`), and a judge (`judge`) scoring each step.",
    task: Task,
    state: ConversationState,
    maxSteps: MAX_AGENT_STEPS,
    computeMetrics: conversationMetrics,
    keyMetrics: conversationKeyMetrics,
    tools: {
      session_tools: {
        description: "The session's generated tools as Responses API function tools.",
        parameters: z.object({}),
        execute: async (_args, ctx) => ({
          tools: (await conversation(ctx)).tool_signatures.map((tool) => ({
            type: "function",
            name: tool.name,
            description: normalizedDoc(tool),
            parameters: normalizedParams(tool) ?? { type: "object", properties: {} },
            strict: true,
          })),
        }),
      },
      session_resume: {
        description: "Who acts next: user, agent, environment (pending calls) or terminal.",
        parameters: z.object({}),
        execute: async (_args, ctx) => sessionResume(await conversation(ctx)),
      },
      record_agent_message: {
        description: "Records one assistant message.",
        parameters: z.object({ content: z.string(), response: Response }),
        execute: (args, ctx) => moving(ctx, (state) => recordOutputs(state, [{ type: "message", content: args.content }], args.response)),
      },
      record_agent_outputs: {
        description: "Records one policy response's messages and function calls, in provider order.",
        parameters: z.object({ outputs: z.array(Output), response: Response }),
        execute: (args, ctx) => moving(ctx, (state) => recordOutputs(state, args.outputs, args.response)),
      },
      record_generation_error: {
        description: "Records that a model (policy, user or tool simulator) failed to generate; the trajectory ends.",
        parameters: z.object({ source: z.enum(["user", "agent", "environment"]), error: z.string() }),
        execute: (args, ctx) =>
          moving(ctx, (state) => {
            if (!state.terminal_state) recordFailure(state, InvalidReason.generation, failureLabelFor(args.source), args.error);
            return { should_continue: false, terminal_state: state.terminal_state };
          }),
      },
      record_agent_step_limit: {
        description: "Ends the trajectory at max_agent_steps, recording the last response's calls unexecuted.",
        parameters: z.object({ max_agent_steps: z.number().int().min(1), tool_calls: z.array(Call).default([]), response: Response }),
        execute: (args, ctx) =>
          moving(ctx, (state) =>
            recordStepLimit(
              state,
              args.max_agent_steps,
              args.tool_calls.map((call) => ({ ...call, type: "function_call" as const })),
              args.response,
            ),
          ),
      },
      next_user_message: {
        description: "The simulated customer's next message (model role `user`).",
        parameters: z.object({}),
        execute: (_args, ctx) => moving(ctx, (state) => nextUserMessage(modelsOf(ctx), state, config.generationAttempts)),
      },
      execute_agent_tool_call: {
        description: "Records a policy function call and answers it with the tool simulator (model role `tool_simulator`).",
        parameters: z.object({ tool_name: z.string(), tool_call_id: z.string(), arguments: z.string(), response: Response }),
        execute: (args, ctx) => moving(ctx, (state) => executeToolCall(modelsOf(ctx), state, args, config.generationAttempts)),
      },
      discard_session: {
        description: "Forgets the session's conversation.",
        parameters: z.object({}),
        execute: async (_args, ctx) => {
          const had = (await ctx.state.get()) !== undefined;
          if (had) await forget(ctx);
          return { discarded: had };
        },
      },
    },
    seedSession: async (row, ctx) => {
      await ctx.state.set(seedConversation(row, row.responses_create_params));
      return {};
    },
    verify: async (_request, ctx) => {
      const state = await conversation(ctx);
      const fields = await verifyConversation(modelsOf(ctx), state, config);
      // A verified session is finished (NeMo Gym pops it).
      await forget(ctx);
      return fields as { reward: number } & Record<string, unknown>;
    },
  });
}

async function forget(ctx: Ctx): Promise<void> {
  if (ctx.state.clear) await ctx.state.clear();
  else throw new Error("the session state cannot be cleared");
}

export default conversationalToolUse();
