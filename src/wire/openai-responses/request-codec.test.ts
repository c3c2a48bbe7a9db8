import { describe, expect, it } from "vitest";
import { parseOpenAIChatRequest } from "../openai-chat/decode-request.js";
import { encodeOpenAiRequest } from "../openai-chat/encode-request.js";
import { encodeAnthropicRequest } from "../anthropic-messages/encode-request.js";
import { parseAnthropicMessagesRequest } from "../anthropic-messages/decode-request.js";
import { parseResponsesRequest } from "./decode-request.js";
import { encodeResponsesRequest } from "./encode-request.js";

/** A Responses request using every field the canonical model has a slot for, and some it keeps in the bag. */
const responsesBody = {
  model: "gpt-x",
  instructions: "Be brief.",
  input: [
    {
      role: "user",
      content: [
        { type: "input_text", text: "What is this?" },
        { type: "input_image", image_url: "https://x.invalid/a.png", detail: "low" },
      ],
    },
    { role: "developer", content: "Answer in JSON." },
    { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Thinking about cats." }], encrypted_content: "enc-abc" },
    { type: "function_call", call_id: "call_1", name: "lookup", arguments: '{"q":"cat"}' },
    { type: "function_call_output", call_id: "call_1", output: "a cat" },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "It is a cat.", annotations: [] }] },
    { role: "user", content: "thanks" },
  ],
  tools: [{ type: "function", name: "lookup", description: "Find", parameters: { type: "object" }, strict: true }, { type: "web_search" }],
  tool_choice: { type: "function", name: "lookup" },
  parallel_tool_calls: false,
  temperature: 0.3,
  top_p: 0.9,
  max_output_tokens: 300,
  top_logprobs: 2,
  text: { format: { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true }, verbosity: "low" },
  reasoning: { effort: "low", summary: "auto" },
  metadata: { team: "a" },
  user: "user-1",
  store: false,
  include: ["reasoning.encrypted_content"],
  service_tier: "flex",
  prompt_cache_key: "conversation-9",
  truncation: "auto",
};

function parsed(body: unknown) {
  const result = parseResponsesRequest(body);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result;
}

describe("Responses request codec (R-GW-6)", () => {
  it("R-GW-6: a Responses request read and written again by the Responses codec is the request the client sent", () => {
    const { request, untranslatable } = parsed(responsesBody);
    expect(untranslatable).toBeUndefined();
    const encoded = encodeResponsesRequest(request, { model: "gpt-x", stream: false });
    expect(encoded).toMatchObject({ ok: true, dropped: [] });
    if (!encoded.ok) return;
    // Same fields, same values; only the `type: "message"` the SDK may omit on input messages is spelled out.
    const { input, ...rest } = encoded.body;
    const { input: sentInput, ...sentRest } = responsesBody;
    expect(rest).toEqual(sentRest);
    expect(input).toEqual([
      sentInput[0],
      sentInput[1],
      sentInput[2],
      sentInput[3],
      sentInput[4],
      sentInput[5],
      { role: "user", content: [{ type: "input_text", text: "thanks" }] },
    ]);
  });

  it("R-GW-6: instructions and input messages become system parts; items become canonical messages", () => {
    const { request } = parsed(responsesBody);
    expect(request.systemParts).toEqual([
      { role: "system", text: "Be brief." },
      { role: "developer", text: "Answer in JSON.", beforeMessage: 1 },
    ]);
    expect(request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(request.messages[1]?.content).toEqual([
      { type: "thinking", text: "Thinking about cats.", origin: "openai-responses", itemId: "rs_1", redactedData: "enc-abc" },
      { type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"cat"}' },
    ]);
    expect(request).toMatchObject({
      toolChoice: { name: "lookup" },
      parallelToolCalls: false,
      maxTokens: 300,
      topLogprobs: 2,
      responseFormat: { type: "json-schema", name: "answer", strict: true },
      reasoning: { enabled: true, effort: "low" },
    });
    expect(request.tools?.map((tool) => tool.name)).toEqual(["lookup"]);
    expect(request.providerOptions?.["openai-responses"]).toMatchObject({
      tools: [{ type: "web_search" }],
      text: { verbosity: "low" },
      reasoning: { summary: "auto" },
    });
  });

  it("R-GW-6: a hosted tool makes an Anthropic or chat candidate incompatible; hints are named", () => {
    const { request } = parsed(responsesBody);
    const anthropic = encodeAnthropicRequest(request, { model: "claude-x", stream: false });
    expect(anthropic).toMatchObject({ ok: false, field: "tools" });
    const chat = encodeOpenAiRequest(request, { model: "gpt", stream: false, maxTokensField: "max_tokens" });
    expect(chat).toMatchObject({ ok: false, field: "tools" });

    const plain = parsed({ ...responsesBody, tools: [responsesBody.tools[0]] }).request;
    const toChat = encodeOpenAiRequest(plain, { model: "gpt", stream: false, maxTokensField: "max_tokens" });
    expect(toChat.ok).toBe(true);
    if (!toChat.ok) return;
    expect(toChat.dropped).toEqual(
      expect.arrayContaining(["thinking", "store", "include", "service_tier", "prompt_cache_key", "truncation", "text", "reasoning"]),
    );
    expect(toChat.body.messages[0]).toEqual({ role: "system", content: "Be brief." });
    expect(toChat.body.response_format).toMatchObject({ type: "json_schema" });
    const toAnthropic = encodeAnthropicRequest(plain, { model: "claude-x", stream: false });
    // A JSON schema for the answer changes it: Anthropic has no such switch (named by the shared field name).
    expect(toAnthropic).toMatchObject({ ok: false, field: "response_format" });
  });

  it("R-GW-6: items no other format can hold are reported as untranslatable, not a 400", () => {
    const file = parsed({ model: "m", input: [{ role: "user", content: [{ type: "input_file", file_id: "file_1" }] }] });
    expect(file.untranslatable?.field).toBe("input_file");
    const reference = parsed({ model: "m", input: [{ type: "item_reference", id: "msg_1" }] });
    expect(reference.untranslatable?.field).toBe("item_reference");
    expect(reference.statefulField).toBe("item_reference");
    expect(parsed({ model: "m", previous_response_id: "resp_1", input: "go on" }).statefulField).toBe("previous_response_id");
    expect(parsed({ model: "m", conversation: "conv_1", input: "go on" }).statefulField).toBe("conversation");
    expect(parsed({ model: "m", input: "hi", previous_response_id: null }).statefulField).toBeUndefined();
  });

  it("R-GW-4: a body without model or with a wrong input is a 400 naming the path", () => {
    const missing = parseResponsesRequest({ input: "hi" });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.issues[0]?.path).toBe("model");
    const wrong = parseResponsesRequest({ model: "m", input: 42 });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.issues[0]?.path).toBe("input");
  });

  it("R-GW-2: a chat-completions request reaches a Responses model in its own words, stateless", () => {
    const chat = parseOpenAIChatRequest({
      model: "detour",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ],
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
      max_tokens: 50,
      reasoning_effort: "high",
      seed: 3,
    });
    if (!chat.ok) throw new Error("chat parse failed");
    const encoded = encodeResponsesRequest(chat.request, { model: "gpt-5", stream: true });
    expect(encoded).toMatchObject({ ok: true, dropped: ["seed"] });
    if (!encoded.ok) return;
    expect(encoded.body).toEqual({
      model: "gpt-5",
      instructions: "Be brief.",
      input: [
        { role: "user", content: [{ type: "input_text", text: "hi" }] },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "ok" },
      ],
      tools: [{ type: "function", name: "f", parameters: { type: "object" } }],
      max_output_tokens: 50,
      reasoning: { effort: "high" },
      store: false,
      stream: true,
    });
    const withStop = parseOpenAIChatRequest({ model: "m", messages: [{ role: "user", content: "hi" }], stop: ["END"] });
    if (!withStop.ok) throw new Error("parse failed");
    expect(encodeResponsesRequest(withStop.request, { model: "m", stream: false })).toMatchObject({ ok: false, field: "stop" });
  });

  it("R-GW-6: Anthropic thinking blocks are a dropped hint on the Responses wire, OpenAI reasoning items one on Anthropic", () => {
    const anthropic = parseAnthropicMessagesRequest({
      model: "claude",
      max_tokens: 100,
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "text", text: "hello" },
          ],
        },
        { role: "user", content: "again" },
      ],
    });
    if (!anthropic.ok) throw new Error("parse failed");
    expect(encodeResponsesRequest(anthropic.request, { model: "m", stream: false })).toMatchObject({ ok: true, dropped: ["thinking"] });
    const responses = parsed({
      model: "m",
      input: [{ role: "user", content: "hi" }, responsesBody.input[2], { role: "user", content: "more" }],
    });
    const toAnthropic = encodeAnthropicRequest(responses.request, { model: "claude", stream: false });
    expect(toAnthropic).toMatchObject({ ok: true, dropped: ["reasoning"] });
  });
});
