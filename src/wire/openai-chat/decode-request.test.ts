import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { cannedFetch, UNUSED_BASE_URL } from "../__fixtures__/sdk-fetch.js";
import { parseOpenAIChatRequest } from "./decode-request.js";

function expectOk(body: unknown) {
  const result = parseOpenAIChatRequest(body);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.issues)}`);
  return result;
}

describe("parseOpenAIChatRequest (R-GW-2)", () => {
  it("R-GW-2: translates system, developer, user text and images, assistant tool calls and tool results", () => {
    const result = expectOk({
      model: "openai/gpt-4o",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: [{ type: "text", text: "Use metric units." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://example.invalid/cat.jpg", detail: "low" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"cat"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "a cat" },
        { role: "assistant", content: "It is a cat." },
      ],
    });
    expect(result.model).toBe("openai/gpt-4o");
    expect(result.request.system).toBe("Be brief.\n\nUse metric units.");
    expect(result.request.model).toBeUndefined();
    expect(result.request.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } },
          { type: "image", source: { kind: "url", url: "https://example.invalid/cat.jpg" }, detail: "low" },
        ],
      },
      { role: "assistant", content: [{ type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"cat"}' }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", content: "a cat" }] },
      { role: "assistant", content: [{ type: "text", text: "It is a cat." }] },
    ]);
  });

  it("R-GW-2: translates tools, tool_choice, sampling, limits, stop, stream and metadata", () => {
    const result = expectOk({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [
        { type: "function", function: { name: "lookup", description: "Find", parameters: { type: "object" } } },
        { type: "function", function: { name: "noop" } },
      ],
      tool_choice: { type: "function", function: { name: "lookup" } },
      temperature: 0.5,
      top_p: 0.9,
      max_tokens: 100,
      max_completion_tokens: 200,
      stop: "END",
      stream: true,
      stream_options: { include_usage: true },
      metadata: { team: "a" },
      seed: 7,
    });
    expect(result.stream).toBe(true);
    expect(result.includeUsage).toBe(true);
    expect(result.request).toMatchObject({
      tools: [
        { name: "lookup", description: "Find", parameters: { type: "object" } },
        { name: "noop", parameters: { type: "object", properties: {} } },
      ],
      toolChoice: { name: "lookup" },
      temperature: 0.5,
      topP: 0.9,
      maxTokens: 200,
      stop: ["END"],
      stream: true,
      metadata: { team: "a" },
    });
    expect(expectOk({ model: "m", messages: [{ role: "user", content: "x" }], tool_choice: "required" }).request.toolChoice).toBe(
      "required",
    );
    expect(expectOk({ model: "m", messages: [{ role: "user", content: "x" }] }).includeUsage).toBe(false);
  });

  it("R-GW-2: accepts the body the real OpenAI SDK sends", async () => {
    const { fetch, sentBodies } = cannedFetch({ status: 500, body: "{}" });
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${UNUSED_BASE_URL}/v1`, fetch, maxRetries: 0 });
    await client.chat.completions
      .create({
        model: "gpt-4o",
        messages: [
          { role: "system", content: "sys" },
          {
            role: "user",
            content: [
              { type: "text", text: "hi" },
              { type: "image_url", image_url: { url: "https://x.invalid/a.png" } },
            ],
          },
        ],
        tools: [{ type: "function", function: { name: "f", parameters: { type: "object", properties: {} } } }],
        tool_choice: "auto",
        max_completion_tokens: 10,
        stream: true,
        stream_options: { include_usage: true },
      })
      .catch(() => undefined);
    const result = expectOk(sentBodies[0]);
    expect(result.includeUsage).toBe(true);
    expect(result.request.messages[0]?.content).toHaveLength(2);
  });
});

describe("parseOpenAIChatRequest validation (R-GW-4)", () => {
  const cases: [string, unknown, string, RegExp][] = [
    ["non-object body", "hello", "(body)", /expected object/],
    ["missing model", { messages: [{ role: "user", content: "x" }] }, "model", /expected string/],
    ["empty model", { model: "", messages: [{ role: "user", content: "x" }] }, "model", /model is required/],
    ["empty messages", { model: "m", messages: [] }, "messages", /at least one message/],
    ["unknown role", { model: "m", messages: [{ role: "function", content: "x" }] }, "messages[0].role", /role must be one of/],
    [
      "wrong content type in the third message",
      {
        model: "m",
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: "b" },
          { role: "user", content: 42 },
        ],
      },
      "messages[2].content",
      /expected string or array/,
    ],
    [
      "unknown content part",
      { model: "m", messages: [{ role: "user", content: [{ type: "input_audio", input_audio: {} }] }] },
      "messages[0].content[0].type",
      /"text" or "image_url"/,
    ],
    [
      "text part without text",
      { model: "m", messages: [{ role: "user", content: [{ type: "text" }] }] },
      "messages[0].content[0].text",
      /expected string/,
    ],
    [
      "assistant with neither content nor tool calls",
      { model: "m", messages: [{ role: "assistant", content: null }] },
      "messages[0].content",
      /content or tool_calls/,
    ],
    [
      "tool message without tool_call_id",
      { model: "m", messages: [{ role: "tool", content: "x" }] },
      "messages[0].tool_call_id",
      /expected string/,
    ],
    ["temperature out of range", { model: "m", messages: [{ role: "user", content: "x" }], temperature: 3 }, "temperature", /<=2/],
    [
      "bad tool name",
      { model: "m", messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { name: "has space" } }] },
      "tools[0].function.name",
      /1-64 letters/,
    ],
    ["n > 1", { model: "m", messages: [{ role: "user", content: "x" }], n: 2 }, "n", /only n=1/],
    [
      "metadata with non-string values",
      { model: "m", messages: [{ role: "user", content: "x" }], metadata: { a: 1 } },
      "metadata.a",
      /expected string/,
    ],
  ];
  for (const [name, body, path, message] of cases) {
    it(`R-GW-4: ${name} → issue at ${path}`, () => {
      const result = parseOpenAIChatRequest(body);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.issues).toContainEqual({ path, message: expect.stringMatching(message) });
    });
  }
});
