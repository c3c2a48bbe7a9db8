import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { anthropicMessagesLane } from "../anthropic-messages/lane.js";
import { openAIChatLane } from "../openai-chat/lane.js";
import { clientWantsUsage, mayBeSlashCommand, upstreamBodyFor } from "./lane-body.js";
import { lastMessageOf, scanChatBody } from "./scan-chat-body.js";

const scan = (text: string) => scanChatBody(Buffer.from(text));

describe("scanChatBody (the same-wire lane's targeted read)", () => {
  test.prop([fc.json()])("R-GW-6: accepts exactly the JSON texts JSON.parse accepts when they are objects", (text) => {
    const result = scan(text);
    const value = JSON.parse(text) as unknown;
    const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
    expect(result.ok).toBe(isObject);
  });

  test.prop([fc.json().map((text) => text.slice(0, Math.max(0, text.length - 1)))])(
    "R-GW-6: rejects what JSON.parse rejects (truncated bodies)",
    (text) => {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      if (!parses) expect(scan(text).ok).toBe(false);
    },
  );

  it.each([
    ['{"model":"a","messages":[', "unterminated array"],
    ['{"model":"a" "messages":[]}', "missing comma"],
    ['{"model":"a\\"}', "unterminated string"],
    ['{"model":01}', "leading zero"],
    ['{"model":tru}', "bad literal"],
    ['{"a":1} x', "trailing data"],
    ["", "empty"],
    ["[1]", "not an object"],
  ])("R-GW-6: a malformed body is refused before any call: %s (%s)", (text) => {
    expect(scan(text).ok).toBe(false);
  });

  it("R-GW-6: finds model, stream, stream_options and the last message without reading the rest", () => {
    const text =
      '{ "messages" : [{"role":"system","content":"x \\"model\\": 1"},{"role":"user","content":"/new"}], "model":"openai/x", "stream":true, "stream_options":{"include_usage":true} }';
    const result = scan(text);
    if (!result.ok) throw new Error(result.problem);
    const body = result.body;
    expect(body.model?.value).toBe("openai/x");
    expect(body.stream?.value).toBe(true);
    expect(body.messages?.count).toBe(2);
    expect(body.messages?.roles).toEqual(["system", "user"]);
    expect(openAIChatLane.shapeOk(body)).toBe(true);
    expect(anthropicMessagesLane.shapeOk(body)).toBe(false);
    expect(mayBeSlashCommand(body)).toBe(true);
    expect(clientWantsUsage(body)).toBe(true);
  });

  it("R-GW-6: the upstream bytes differ from the client's only in model (and the usage option the lane adds)", () => {
    const text = '{"model":"openai/x","messages":[{"role":"user","content":"hi"}],"seed":7,"stream":true}';
    const result = scan(text);
    if (!result.ok) throw new Error(result.problem);
    expect(upstreamBodyFor(result.body, "x", false).toString()).toBe(text.replace('"openai/x"', '"x"'));
    expect(upstreamBodyFor(result.body, "x", true).toString()).toBe(
      '{"stream_options":{"include_usage":true},"model":"x","messages":[{"role":"user","content":"hi"}],"seed":7,"stream":true}',
    );
    const withOptions = scan('{"model":"m","messages":[],"stream_options":{"other":1}}');
    if (!withOptions.ok) throw new Error(withOptions.problem);
    expect(upstreamBodyFor(withOptions.body, "y", true).toString()).toBe(
      '{"model":"y","messages":[],"stream_options":{"other":1,"include_usage":true}}',
    );
  });

  it("R-ST-6: a non-streamed body goes upstream as a stream: only stream (and, OpenAI, the usage option) added or set", () => {
    const absent = scan('{"model":"openai/x","messages":[{"role":"user","content":"hi"}],"seed":7}');
    if (!absent.ok) throw new Error(absent.problem);
    expect(upstreamBodyFor(absent.body, "x", true, true).toString()).toBe(
      '{"stream":true,"stream_options":{"include_usage":true},"model":"x","messages":[{"role":"user","content":"hi"}],"seed":7}',
    );
    expect(upstreamBodyFor(absent.body, "x", false, true).toString()).toBe(
      '{"stream":true,"model":"x","messages":[{"role":"user","content":"hi"}],"seed":7}',
    );
    const explicitFalse = scan('{"model":"m","stream" : false,"max_tokens":5,"messages":[]}');
    if (!explicitFalse.ok) throw new Error(explicitFalse.problem);
    expect(upstreamBodyFor(explicitFalse.body, "y", false, true).toString()).toBe(
      '{"model":"y","stream" : true,"max_tokens":5,"messages":[]}',
    );
    const parsed = JSON.parse(upstreamBodyFor(explicitFalse.body, "y", true, true).toString()) as Record<string, unknown>;
    expect(parsed).toEqual({ stream_options: { include_usage: true }, model: "y", stream: true, max_tokens: 5, messages: [] });
  });

  it("R-GW-6: a body whose shape the scan does not vouch for goes to the full parse (unknown role, no max_tokens)", () => {
    const wizard = scan('{"model":"m","messages":[{"role":"wizard","content":"?"}]}');
    const noMax = scan('{"model":"m","messages":[{"role":"user","content":"?"}]}');
    if (!wizard.ok || !noMax.ok) throw new Error("expected JSON");
    expect(openAIChatLane.shapeOk(wizard.body)).toBe(false);
    expect(anthropicMessagesLane.shapeOk(noMax.body)).toBe(false);
  });

  // Strings end at the first quote after an even run of backslashes: each case has a decoy after it.
  it.each([
    ["an escaped quote", String.raw`say \"model\": \"x\"`],
    ["an escaped backslash right before the closing quote", String.raw`C:\\dir\\`],
    ["an escaped backslash then an escaped quote", String.raw`\\\"quoted\\\"`],
    ["only backslashes", String.raw`\\\\\\`],
    ["a quote as a unicode escape", String.raw`\u0022model\u0022:1 \u005c`],
    ["an escaped quote first", String.raw`\"`],
  ])("R-GW-6: skips strings with %s", (_name, content) => {
    const text = `{"messages":[{"role":"user","content":"${content}","name":"${content}"}],"model":"openai/x","max_tokens":3}`;
    const expected = JSON.parse(text) as { messages: unknown[] };
    const result = scan(text);
    if (!result.ok) throw new Error(result.problem);
    expect(result.body.model?.value).toBe("openai/x");
    expect(result.body.maxTokens?.value).toBe(3);
    expect(result.body.messages?.roles).toEqual(["user"]);
    expect(lastMessageOf(result.body)).toEqual(expected.messages[0]);
  });

  it("R-GW-6: an odd run of backslashes before the last quote leaves the string open", () => {
    expect(scan(String.raw`{"model":"a\\\"}`).ok).toBe(false);
    expect(scan(String.raw`{"model":"a\\\\"}`).ok).toBe(true);
  });

  it("R-GW-6: content parts with nested arrays and objects are skipped whole; roles, counts and the last message are right", () => {
    const messages = [
      {
        role: "user",
        content: [
          { type: "text", text: 'a "nested" [array] {x}' },
          { type: "image_url", image_url: { url: "data:x", detail: "low" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: '{"a":[1,{"b":"\\""}]}' } }],
      },
      { role: "tool", tool_call_id: "c", content: [{ type: "text", text: "]}" }] },
    ];
    const tools = [
      { type: "function", function: { name: "f", parameters: { type: "object", properties: { a: { type: "array", items: [{}, []] } } } } },
    ];
    const text = JSON.stringify({ messages, tools, model: "openai/x", max_completion_tokens: 9, stream: false });
    const result = scan(text);
    if (!result.ok) throw new Error(result.problem);
    expect(result.body.messages?.count).toBe(3);
    expect(result.body.messages?.roles).toEqual(["user", "assistant", "tool"]);
    expect(lastMessageOf(result.body)).toEqual(messages[2]);
    expect(result.body.tools?.count).toBe(1);
    expect(result.body.maxCompletionTokens?.value).toBe(9);
    expect(result.body.stream?.value).toBe(false);
    expect(result.body.escapedKey).toBe(false);
  });

  const tricky = fc.string({ unit: fc.constantFrom("a", '"', "\\", "/", "\n", "é", "😀", "{", "]"), maxLength: 30 });
  test.prop([
    fc.array(
      fc.record({
        role: fc.constantFrom("user", "assistant"),
        content: fc.oneof(tricky, fc.array(fc.record({ type: fc.constant("text"), text: tricky }))),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    tricky,
    fc.nat(),
  ])(
    "R-GW-6: on any chat body the scan reads what JSON.parse reads (model, max_tokens, roles, last message)",
    (messages, model, maxTokens) => {
      const text = JSON.stringify({ messages, model, max_tokens: maxTokens });
      const result = scan(text);
      if (!result.ok) throw new Error(result.problem);
      expect(result.body.model?.value).toBe(model);
      expect(result.body.maxTokens?.value).toBe(maxTokens);
      expect(result.body.messages?.roles).toEqual(messages.map((message) => message.role));
      expect(lastMessageOf(result.body)).toEqual(messages.at(-1));
    },
  );
});
