// A rollout as OpenAI chat messages with tool calls, the format SFT and DPO trainers read (TRL, NeMo RL, OpenAI fine-tuning).
import { contentText, Item, isFunctionTool, type ResponsesCreateParams } from "../../protocol/index.js";

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  /** The model's reasoning for this turn, when asked to keep it (vLLM's and Qwen's chat templates read this field). */
  reasoning_content?: string;
}

export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export interface ChatOptions {
  /** Keep reasoning items as the next assistant message's reasoning_content (dropped by default). */
  reasoning?: boolean;
}

/** Responses items → chat messages: a function call joins the assistant turn before it, its output is a `tool` message. */
export function itemsToMessages(items: unknown[], options: ChatOptions = {}): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let reasoning: string[] = [];
  const assistant = (): ChatMessage => {
    const last = messages.at(-1);
    // A tool call right after the assistant's own text is the same turn.
    if (last?.role === "assistant") return last;
    const turn: ChatMessage = { role: "assistant", content: null };
    messages.push(turn);
    return turn;
  };
  const takeReasoning = (turn: ChatMessage) => {
    if (options.reasoning && reasoning.length) turn.reasoning_content = [turn.reasoning_content, ...reasoning].filter(Boolean).join("\n");
    reasoning = [];
  };
  for (const raw of items) {
    const parsed = Item.safeParse(raw);
    if (!parsed.success) continue;
    const item = parsed.data;
    if (item.type === "reasoning") {
      reasoning.push([...item.summary.map((s) => s.text), ...(item.content ?? []).map((c) => c.text ?? "")].filter(Boolean).join("\n"));
    } else if (item.type === "message") {
      const text = contentText(item.content);
      if (item.role === "assistant") {
        const last = messages.at(-1);
        const turn: ChatMessage = last?.role === "assistant" && !last.tool_calls ? last : { role: "assistant", content: null };
        if (turn !== last) messages.push(turn);
        turn.content = turn.content ? `${turn.content}${text}` : text;
        takeReasoning(turn);
      } else {
        messages.push({ role: item.role === "developer" ? "system" : item.role, content: text });
      }
    } else if (item.type === "function_call") {
      const turn = assistant();
      turn.tool_calls = [...(turn.tool_calls ?? []), { id: item.call_id, type: "function", function: { name: item.name, arguments: item.arguments } }];
      takeReasoning(turn);
    } else if (item.type === "function_call_output") {
      messages.push({ role: "tool", tool_call_id: item.call_id, content: contentText(item.output) });
    }
  }
  return messages;
}

/** The prompt: instructions as the system message, then the input. */
export function promptMessages(params: Pick<ResponsesCreateParams, "input" | "instructions">, options: ChatOptions = {}): ChatMessage[] {
  const system: ChatMessage[] = params.instructions ? [{ role: "system", content: params.instructions }] : [];
  if (typeof params.input === "string") return [...system, { role: "user", content: params.input }];
  return [...system, ...itemsToMessages(params.input, options)];
}

/** The function tools the model was offered, in chat-completions form. */
export function chatTools(params: Pick<ResponsesCreateParams, "tools">): ChatTool[] {
  return (params.tools ?? []).filter(isFunctionTool).map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      ...(tool.description != null ? { description: tool.description } : {}),
      ...(tool.parameters != null ? { parameters: tool.parameters } : {}),
      ...(tool.strict != null ? { strict: tool.strict } : {}),
    },
  }));
}
