import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { cannedFetch, UNUSED_BASE_URL } from "../__fixtures__/sdk-fetch.js";
import { parseAnthropicMessagesRequest } from "./decode-request.js";

function expectOk(body: unknown) {
  const result = parseAnthropicMessagesRequest(body);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.issues)}`);
  return result;
}

describe("parseAnthropicMessagesRequest (R-GW-2)", () => {
  it("R-GW-2, R-GW-6: translates system blocks with cache marks, images, thinking, tool use, tool results with images (split before the user text)", () => {
    const result = expectOk({
      model: "claude",
      max_tokens: 256,
      system: [
        { type: "text", text: "Be brief." },
        { type: "text", text: "Metric.", cache_control: { type: "ephemeral" } },
      ],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
            { type: "image", source: { type: "url", url: "https://example.invalid/a.png" } },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "text", text: "Looking." },
            { type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "cat" } },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_1",
              content: [
                { type: "text", text: "a cat" },
                { type: "image", source: { type: "url", url: "https://x.invalid/p.png" } },
              ],
              is_error: false,
            },
            { type: "text", text: "Thanks" },
          ],
        },
        { role: "assistant", content: "It is a cat." },
      ],
    });
    expect(result.request.system).toBe("Be brief.\n\nMetric.");
    expect(result.request.systemParts).toEqual([
      { role: "system", text: "Be brief." },
      { role: "system", text: "Metric.", cache: { type: "ephemeral" } },
    ]);
    expect(result.request.maxTokens).toBe(256);
    expect(result.request.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBOR" } },
          { type: "image", source: { kind: "url", url: "https://example.invalid/a.png" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "hmm", signature: "sig" },
          { type: "text", text: "Looking." },
          { type: "tool-call", id: "toolu_1", name: "lookup", arguments: '{"q":"cat"}' },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "toolu_1",
            content: "a cat",
            parts: [
              { type: "text", text: "a cat" },
              { type: "image", source: { kind: "url", url: "https://x.invalid/p.png" } },
            ],
            isError: false,
          },
        ],
      },
      { role: "user", content: [{ type: "text", text: "Thanks" }] },
      { role: "assistant", content: [{ type: "text", text: "It is a cat." }] },
    ]);
  });

  const toolChoices: [unknown, unknown][] = [
    [{ type: "auto" }, "auto"],
    [{ type: "any" }, "required"],
    [{ type: "none" }, "none"],
    [{ type: "tool", name: "lookup" }, { name: "lookup" }],
  ];
  for (const [choice, canonical] of toolChoices) {
    it(`R-GW-2: tool_choice ${JSON.stringify(choice)} → ${JSON.stringify(canonical)}`, () => {
      const result = expectOk({
        model: "m",
        max_tokens: 1,
        messages: [{ role: "user", content: "x" }],
        tools: [{ name: "lookup", description: "Find", input_schema: { type: "object" } }],
        tool_choice: choice,
      });
      expect(result.request.toolChoice).toEqual(canonical);
      expect(result.request.tools).toEqual([{ name: "lookup", description: "Find", parameters: { type: "object" } }]);
    });
  }

  it("R-GW-2, R-GW-6: translates sampling with top_k, stop sequences, stream, thinking and metadata.user_id", () => {
    const result = expectOk({
      model: "m",
      max_tokens: 5,
      messages: [{ role: "user", content: "x" }],
      temperature: 0.2,
      top_p: 0.8,
      top_k: 5,
      stop_sequences: ["END"],
      stream: true,
      metadata: { user_id: "u-1" },
      thinking: { type: "enabled", budget_tokens: 2048 },
      service_tier: "auto",
    });
    expect(result.stream).toBe(true);
    expect(result.request).toMatchObject({
      temperature: 0.2,
      topP: 0.8,
      topK: 5,
      stop: ["END"],
      stream: true,
      user: "u-1",
      reasoning: { enabled: true, budgetTokens: 2048 },
      providerOptions: { "anthropic-messages": { service_tier: "auto" } },
    });
  });

  it("R-GW-2: accepts the body the real Anthropic SDK sends", async () => {
    const { fetch, sentBodies } = cannedFetch({ status: 500, body: "{}" });
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: UNUSED_BASE_URL, fetch, maxRetries: 0 });
    await client.messages
      .create({
        model: "claude",
        max_tokens: 10,
        system: "sys",
        messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
        tools: [{ name: "f", input_schema: { type: "object", properties: {} } }],
        tool_choice: { type: "auto" },
        stream: true,
      })
      .catch(() => undefined);
    expect(expectOk(sentBodies[0]).request.system).toBe("sys");
  });
});

describe("parseAnthropicMessagesRequest validation (R-GW-4)", () => {
  const base = { model: "m", max_tokens: 10 };
  const cases: [string, unknown, string, RegExp][] = [
    ["missing max_tokens", { model: "m", messages: [{ role: "user", content: "x" }] }, "max_tokens", /expected number/],
    ["system role in messages", { ...base, messages: [{ role: "system", content: "x" }] }, "messages[0].role", /goes in "system"/],
    [
      "bad block in the second message",
      {
        ...base,
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: [{ type: "image" }] },
        ],
      },
      "messages[1].content[0].type",
      /assistant content block type/,
    ],
    [
      "tool_use input that is not an object",
      { ...base, messages: [{ role: "assistant", content: [{ type: "tool_use", id: "t", name: "n", input: "x" }] }] },
      "messages[0].content[0].input",
      /expected record/,
    ],
    [
      "image with an unknown source type",
      { ...base, messages: [{ role: "user", content: [{ type: "image", source: { type: "file", file_id: "f" } }] }] },
      "messages[0].content[0].source.type",
      /"base64" or "url"/,
    ],
    [
      "server tool",
      { ...base, messages: [{ role: "user", content: "x" }], tools: [{ type: "web_search_20250305", name: "web_search" }] },
      "tools[0].type",
      /only custom tools/,
    ],
    ["temperature above 1", { ...base, messages: [{ role: "user", content: "x" }], temperature: 1.5 }, "temperature", /<=1/],
    [
      "unknown tool_choice",
      { ...base, messages: [{ role: "user", content: "x" }], tool_choice: { type: "sometimes" } },
      "tool_choice.type",
      /"auto", "any", "tool" or "none"/,
    ],
  ];
  for (const [name, body, path, message] of cases) {
    it(`R-GW-4: ${name} → issue at ${path}`, () => {
      const result = parseAnthropicMessagesRequest(body);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.issues).toContainEqual({ path, message: expect.stringMatching(message) });
    });
  }
});
