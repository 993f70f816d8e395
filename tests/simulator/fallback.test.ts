// The policy's fallbacks: unknown tools, no tools, and the helpers behind the task planners.
import { describe, expect, it } from "vitest";
import { decide } from "../../local/simulator/policy.js";
import { findCities } from "../../local/simulator/planners/weather.js";
import { parseSynonymLines, pickTerm } from "../../local/simulator/planners/synonyms.js";
import { chatCompletionRequestSchema, type ChatCompletionRequestInput } from "../../local/simulator/schema.js";

function ask(request: ChatCompletionRequestInput): ReturnType<typeof decide> {
  return decide(chatCompletionRequestSchema.parse(request));
}

const emailTools: ChatCompletionRequestInput["tools"] = [
  {
    type: "function",
    function: {
      name: "email_search_emails",
      parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    },
  },
  {
    type: "function",
    function: {
      name: "email_reply_email",
      parameters: {
        type: "object",
        properties: {
          email_id: { type: "string" },
          body: { type: "string" },
          priority: { type: "string", enum: ["normal", "high"] },
          copies: { type: "integer" },
          tags: { type: "array", items: { type: "string" } },
        },
        required: ["email_id", "body", "priority", "copies", "tags"],
      },
    },
  },
];

describe("generic tools", () => {
  const user = "Reply to Carlos's email '00042' with 'On it' and send 3 copies";

  it("calls the most relevant tool once with schema-filled arguments, then answers", () => {
    const first = ask({ messages: [{ role: "user", content: user }], tools: emailTools });
    expect(first.content).toBeNull();
    expect(first.tool_calls).toEqual([
      {
        name: "email_reply_email",
        arguments: { email_id: "00042", body: "On it", priority: "normal", copies: 3, tags: [] },
      },
    ]);
    const second = ask({
      messages: [
        { role: "user", content: user },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "email_reply_email", arguments: JSON.stringify(first.tool_calls[0]!.arguments) } }],
        },
        { role: "tool", tool_call_id: "c1", content: '{"status": "Reply sent."}' },
      ],
      tools: emailTools,
    });
    expect(second.tool_calls).toEqual([]);
    expect(second.content).toContain("Reply sent.");
  });

  it("calls nothing when tool_choice is none", () => {
    const decision = ask({ messages: [{ role: "user", content: user }], tools: emailTools, tool_choice: "none" });
    expect(decision.tool_calls).toEqual([]);
  });

  it("calls the named tool when tool_choice names one", () => {
    const decision = ask({
      messages: [{ role: "user", content: user }],
      tools: emailTools,
      tool_choice: { type: "function", function: { name: "email_search_emails" } },
    });
    expect(decision.tool_calls.map((c) => c.name)).toEqual(["email_search_emails"]);
  });
});

describe("text answers", () => {
  it("boxes a letter for multiple choice", () => {
    const decision = ask({
      messages: [{ role: "user", content: "Put your letter inside \\boxed{}. Which is a gas? A: Iron B: Helium C: Salt" }],
    });
    expect(decision.content).toContain("\\boxed{A}");
  });

  it("uses Answer: X when choices are given without a box", () => {
    const decision = ask({ messages: [{ role: "user", content: "Pick one.\n(A) red\n(B) blue" }] });
    expect(decision.content).toMatch(/Answer: A$/);
  });

  it("boxes a plausible value and echoes the user", () => {
    const decision = ask({ messages: [{ role: "user", content: "What is the capital of France? Put your final answer in \\boxed{}." }] });
    expect(decision.content).toContain("\\boxed{France}");
    expect(decision.content).toContain("What is the capital of France?");
  });

  it("is deterministic", () => {
    const request = { messages: [{ role: "user" as const, content: "tell me a story about Ada" }] };
    expect(ask(request)).toEqual(ask(request));
  });
});

describe("planner helpers", () => {
  it.each([
    ["what's it like in sf?", ["San Francisco"]],
    ["how hot is it in New York today?", ["New York"]],
    ["weather in london and Paris", ["London", "Paris"]],
    ["is it raining in Reykjavik right now?", ["Reykjavik"]],
    ["What's the weather like?", []],
    ["get the weather for 3 cities in the us", []],
  ])("finds cities in %s", (text, cities) => {
    expect(findCities(text)).toEqual(cities);
  });

  const lines = [
    "The term 'Up' has a synonym 'Higher'.",
    "The term 'High' has a synonym 'Soaring'.",
    "The term 'Hot' has a synonym 'Blazing'.",
    "The term 'Cold' has a synonym 'Icy'.",
    "The term 'Hot' has a synonym 'Warm'.",
  ].join("\n");

  it("groups synonyms by term in list order", () => {
    expect(parseSynonymLines(lines)).toEqual([
      { term: "Up", synonyms: ["Higher"] },
      { term: "High", synonyms: ["Soaring"] },
      { term: "Hot", synonyms: ["Blazing", "Warm"] },
      { term: "Cold", synonyms: ["Icy"] },
    ]);
  });

  it.each([
    ["extremely high temperatures", "Hot"],
    ["how high can eagles fly?", "High"],
    ["icy roads in winter", "Cold"],
    ["tell me about philosophy", null],
  ])("picks the term for %s", (query, term) => {
    expect(pickTerm(query, parseSynonymLines(lines))?.term ?? null).toBe(term);
  });
});
