// An OpenEnv episode on a gymnasium environment (NeMo Gym's reset/step): every action is one model turn sent to /step,
// as NeMo Gym's gymnasium agent sends it; the step's reward is OpenEnv's reward, terminated or truncated its `done`.
import type { DatasetRow, Item } from "../../../protocol/index.js";
import type { OpenEnvAction, OpenEnvResult } from "../../../protocol/openenv.js";
import { failed, post } from "./calls.js";
import type { Episode, EpisodeTarget, Opened } from "./types.js";
import { promptOf, rowTools, toolResult, toolsOf } from "./shapes.js";

const userMessage = (content: string): Item => ({ type: "message", role: "user", content });

/** /reset opens the session; its observation text follows the row's input as a user message (as the agent adds it). */
export async function resetGymnasium(target: EpisodeTarget, row: DatasetRow, episodeId: string): Promise<Opened> {
  const opened = await post(target, "reset", row);
  if (opened.status >= 400 || !opened.sessionId) throw failed(opened, `${target.environment}'s /reset`);
  const text = (opened.body as { observation?: string | null } | null)?.observation;
  const episode: Episode = {
    environment: target.environment,
    kind: "gymnasium",
    episodeId,
    sessionId: opened.sessionId,
    row,
    produced: [],
    steps: 0,
    done: false,
  };
  const prompt = [...promptOf(row), ...(text ? [userMessage(text)] : [])];
  return {
    episode,
    result: {
      observation: { prompt, tools: toolsOf(rowTools(row)), metadata: { episode_id: episodeId, environment: target.environment } },
      reward: null,
      done: false,
    },
  };
}

interface StepAnswer {
  observation?: string | null;
  reward?: number;
  terminated?: boolean;
  truncated?: boolean;
  info?: { tool_outputs?: { call_id: string; output: unknown }[] } & Record<string, unknown>;
}

/** The turn's item: a function call, or the assistant's message. */
function turnItem(episode: Episode, action: Exclude<OpenEnvAction, { type: "list_tools" }>): Item {
  if (action.type === "call_tool") {
    return {
      type: "function_call",
      name: action.tool_name,
      arguments: JSON.stringify(action.arguments),
      call_id: `call_${episode.steps}`,
      id: null,
      status: null,
    };
  }
  return {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: action.content, annotations: [] }],
    id: `msg_${episode.steps}`,
    status: "completed",
  };
}

/** One turn: /step with the row and a response whose output is this turn's item (NeMo Gym's step request). */
export async function stepGymnasium(target: EpisodeTarget, episode: Episode, action: Exclude<OpenEnvAction, { type: "list_tools" }>): Promise<OpenEnvResult> {
  const item = turnItem(episode, action);
  const response = {
    id: `openenv_${episode.episodeId}_${episode.steps}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: "openenv",
    output: [item],
    usage: null,
  };
  const answer = await post(target, "step", { ...episode.row, response }, episode.sessionId);
  if (answer.status >= 400) throw failed(answer, `${target.environment}'s /step`);
  const step = answer.body as StepAnswer;
  episode.produced.push(item);
  const outputs = step.info?.tool_outputs ?? [];
  for (const { call_id, output } of outputs) {
    episode.produced.push({
      type: "function_call_output",
      call_id,
      output: typeof output === "string" ? output : JSON.stringify(output),
      id: null,
      status: null,
    });
  }
  if (step.observation) episode.produced.push(userMessage(step.observation));
  episode.done = step.terminated === true || step.truncated === true;
  const metadata = { episode_id: episode.episodeId, terminated: step.terminated ?? false, truncated: step.truncated ?? false, info: step.info ?? {} };
  // The environment's observation text is the next user message; a tool call's output (info.tool_outputs) its result.
  const observation: Record<string, unknown> =
    action.type === "call_tool"
      ? {
          tool_name: action.tool_name,
          result: toolResult(outputs.find((o) => o.call_id === item.call_id)?.output ?? null),
          error: null,
          text: step.observation ?? null,
          metadata,
        }
      : { content: action.content, text: step.observation ?? null, metadata };
  return { observation, reward: step.reward ?? 0, done: episode.done };
}
