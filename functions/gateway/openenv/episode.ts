// One OpenEnv episode on an edgegym environment: reset seeds a session, a tool call runs in it, a final answer is verified.
// Every call goes to the environment's own HTTP routes through its service binding (as /v1/environments/<env>/… does),
// so the session is the environment's Durable Object and its id is the environment's, carried in x-session-id.
import { RESERVED_ROUTES } from "../../../contracts/names.js";
import { type DatasetRow, EdgegymError } from "../../../protocol/index.js";
import type { OpenEnvAction, OpenEnvResult, OpenEnvState } from "../../../protocol/openenv.js";
import { type Answer, failed, post } from "./calls.js";
import { resetGymnasium, stepGymnasium } from "./gymnasium.js";
import type { Episode, EpisodeTarget, Opened } from "./types.js";
import { promptOf, rowTools, toolResult, toolsOf } from "./shapes.js";

/** reset: a session seeded with the row (NeMo Gym's /seed_session, or a gymnasium /reset); the observation is the prompt and the tools. */
export async function resetEpisode(target: EpisodeTarget, row: DatasetRow, episodeId: string, kind: Episode["kind"]): Promise<Opened> {
  if (kind === "gymnasium") return resetGymnasium(target, row, episodeId);
  const seeded = await post(target, "seed_session", row);
  if (seeded.status >= 400 || !seeded.sessionId) throw failed(seeded, `${target.environment}'s /seed_session`);
  const episode: Episode = { environment: target.environment, kind, episodeId, sessionId: seeded.sessionId, row, produced: [], steps: 0, done: false };
  const observation = { prompt: promptOf(row), tools: toolsOf(rowTools(row)), metadata: { episode_id: episodeId, environment: target.environment } };
  return { episode, result: { observation, reward: null, done: false } };
}

const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

/** The answer for a name no tool can have, as the environment answers an unknown tool. */
function unknownTool(name: string): Answer {
  return { status: 404, body: { error: { code: "unknown_tool", message: `Unknown tool: ${name}` } }, sessionId: null };
}

/** ToolErrorType (mcp_types.py) for an environment's refusal of a call. */
function toolErrorType(status: number): string {
  if (status === 404) return "tool_not_found";
  if (status === 400 || status === 422) return "invalid_args";
  return "execution_error";
}

async function callTool(target: EpisodeTarget, episode: Episode, name: string, args: Record<string, unknown>): Promise<OpenEnvResult> {
  const callId = `call_${episode.steps}`;
  const argumentsText = JSON.stringify(args);
  // A tool's name is a route of the environment: a name that is not a tool's (verify, seed_session, a path) never reaches one.
  const answer = RESERVED_ROUTES.has(name) || !TOOL_NAME.test(name) ? unknownTool(name) : await post(target, name, args, episode.sessionId);
  // As NeMo Gym's agent: whatever the tool answered, error or not, is the output the model sees next.
  episode.produced.push(
    { type: "function_call", name, arguments: argumentsText, call_id: callId, id: null, status: null },
    { type: "function_call_output", call_id: callId, output: JSON.stringify(answer.body), id: null, status: null },
  );
  const error =
    answer.status >= 400
      ? { error_type: toolErrorType(answer.status), message: (answer.body as { error?: { message?: string } })?.error?.message ?? `answered ${answer.status}` }
      : null;
  const result = error ? null : toolResult(answer.body);
  return { observation: { tool_name: name, result, error, metadata: { episode_id: episode.episodeId } }, reward: null, done: false };
}

/** The final answer: NeMo Gym's /verify on the row and the trajectory, in the episode's session; its reward ends the episode. */
async function finish(target: EpisodeTarget, episode: Episode, content: string): Promise<OpenEnvResult> {
  episode.produced.push({
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: content, annotations: [] }],
    id: `msg_${episode.steps}`,
    status: "completed",
  });
  const response = {
    id: `openenv_${episode.episodeId}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: "openenv",
    output: episode.produced,
    usage: null,
  };
  const answer = await post(target, "verify", { ...episode.row, response }, episode.sessionId);
  if (answer.status >= 400) throw failed(answer, `${target.environment}'s /verify`);
  const fields = answer.body as Record<string, unknown>;
  const reward = typeof fields.reward === "number" ? fields.reward : null;
  episode.done = true;
  // The verifier's own fields (beyond the row and the response it was sent) go in the metadata.
  const { response: _response, responses_create_params: _params, ...verifier } = fields;
  return { observation: { content, metadata: { episode_id: episode.episodeId, verify: verifier } }, reward, done: true };
}

/** step: one action in the episode (which it updates). */
export async function stepEpisode(target: EpisodeTarget, episode: Episode, action: OpenEnvAction): Promise<OpenEnvResult> {
  if (episode.environment !== target.environment) {
    throw new EdgegymError(400, "wrong_episode", `this episode is on ${episode.environment}, not ${target.environment}`);
  }
  if (episode.done) throw new EdgegymError(409, "episode_done", "the episode is done (verified, or terminated): reset for a new one");
  if (action.type === "list_tools") {
    return { observation: { tools: toolsOf(rowTools(episode.row)), metadata: { episode_id: episode.episodeId } }, reward: null, done: false };
  }
  episode.steps += 1;
  if (episode.kind === "gymnasium") return stepGymnasium(target, episode, action);
  return action.type === "call_tool" ? callTool(target, episode, action.tool_name, action.arguments) : finish(target, episode, action.content);
}

/** state: the episode id and the steps taken (types.py State), and whether it is done. */
export function stateOf(episode: Episode | undefined): OpenEnvState {
  if (!episode) return { episode_id: null, step_count: 0 };
  return { episode_id: episode.episodeId, step_count: episode.steps, environment: episode.environment, done: episode.done };
}
