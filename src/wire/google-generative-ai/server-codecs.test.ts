import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { googleGenerativeAiWire } from "./format.js";

const decode = (body: unknown, route = { model: "gemini-x", stream: false }) => {
  const decoded = googleGenerativeAiWire.request.decode?.(body, route);
  if (!decoded) throw new Error("google decodes requests");
  return decoded;
};

describe("Gemini server codecs: a client's request", () => {
  it("reads a tool turn as the Google SDK sends it: calls paired with their results by name, in order", () => {
    const decoded = decode({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Weather in Oslo and Bergen?" }] },
        {
          role: "model",
          parts: [
            { functionCall: { name: "get_weather", args: { city: "Oslo" } } },
            { functionCall: { name: "get_weather", args: { city: "Bergen" } } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "get_weather", response: { output: "Rain" } } },
            { functionResponse: { name: "get_weather", response: { error: "unknown city" } } },
          ],
        },
      ],
      tools: [
        { functionDeclarations: [{ name: "get_weather", parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } } }] },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
      generationConfig: {
        temperature: 0.2,
        maxOutputTokens: 300,
        thinkingConfig: { thinkingBudget: 2048 },
        responseMimeType: "application/json",
        responseSchema: { type: "OBJECT" },
      },
    });
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.issues));
    const { request, model, stream } = decoded.value;
    expect([model, stream]).toEqual(["gemini-x", false]);
    expect(request.system).toBe("Be brief.");
    expect(request.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Weather in Oslo and Bergen?" }] },
      {
        role: "assistant",
        content: [
          { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
          { type: "tool-call", id: "call_2", name: "get_weather", arguments: '{"city":"Bergen"}' },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "call_1", content: "Rain" },
          { type: "tool-result", toolCallId: "call_2", content: "unknown city", isError: true },
        ],
      },
    ]);
    expect(request.tools?.[0]?.parameters).toEqual({ type: "OBJECT", properties: { city: { type: "STRING" } } });
    expect(request.toolChoice).toEqual({ name: "get_weather" });
    expect(request).toMatchObject({ temperature: 0.2, maxTokens: 300, reasoning: { enabled: true, budgetTokens: 2048 } });
    expect(request.responseFormat).toEqual({ type: "json-schema", name: "response", schema: { type: "OBJECT" } });
  });

  it("keeps fields it does not map for the same format, and refuses a body without contents or a path without a model", () => {
    const decoded = decode({ contents: [{ parts: [{ text: "hi" }] }], cachedContent: "cachedContents/abc" });
    expect(decoded.ok && decoded.value.request.providerOptions).toEqual({
      "google-generative-ai": { cachedContent: "cachedContents/abc" },
    });
    const missing = decode({ prompt: "hi" });
    expect(missing.ok ? [] : missing.issues.map((issue) => issue.path)).toContain("contents");
    expect(googleGenerativeAiWire.request.decode?.({ contents: [] }, {})).toMatchObject({ ok: false, issues: [{ path: "(url)" }] });
  });
});

describe("Gemini server codecs: streams and errors", () => {
  const encoder = () => {
    const created = googleGenerativeAiWire.stream.encoder?.({ model: "gemini-x", createdSeconds: 1, includeUsage: true });
    if (!created) throw new Error("google encodes streams");
    return created;
  };
  const payloads = (frames: string[]) => frames.map((frame) => JSON.parse(frame.replace(/^data: /, "")) as Record<string, any>);

  it("sends thoughts with their signature as thought parts, and frames end in CRLF as Google's do", () => {
    const stream = encoder();
    stream.encode({ type: "message-start", id: "r-1", model: "gemini-x-001" });
    const frames = [
      ...stream.encode({ type: "thinking-delta", index: 0, text: "Hmm." }),
      ...stream.encode({ type: "thinking-delta", index: 0, signature: "sig" }),
    ];
    expect(frames.every((frame) => frame.endsWith("\r\n\r\n"))).toBe(true);
    expect(payloads(frames).map((chunk) => chunk.candidates[0].content.parts[0])).toEqual([
      { text: "Hmm.", thought: true },
      { text: "", thought: true, thoughtSignature: "sig" },
    ]);
    expect(payloads(frames)[0]).toMatchObject({ modelVersion: "gemini-x-001", responseId: "r-1" });
  });

  it("holds a call until its arguments are whole, and flushes an unfinished one at the end", () => {
    const stream = encoder();
    const events: CanonicalStreamEvent[] = [
      { type: "message-start", id: "r-2", model: "gemini-x" },
      { type: "tool-call-delta", index: 0, id: "call_1", name: "a", argumentsDelta: '{"x":' },
      { type: "tool-call-delta", index: 0, argumentsDelta: "1}" },
      { type: "tool-call-delta", index: 1, id: "call_2", name: "b", argumentsDelta: '{"y":' },
    ];
    const perEvent = events.map((event) => stream.encode(event).length);
    expect(perEvent).toEqual([0, 0, 1, 0]);
    const end = payloads(stream.encode({ type: "finish", reason: "tool_calls", usage: { inputTokens: 5, outputTokens: 2 } }));
    expect(end[0]?.candidates[0].content.parts[0].functionCall).toEqual({ name: "b", args: { raw_arguments: '{"y":' } });
    expect(end[1]).toMatchObject({
      candidates: [{ finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
    });
  });

  it("ends with a google.rpc.Status chunk on an error, and renders HTTP errors with RetryInfo", () => {
    const stream = encoder();
    const [frame] = stream.encode({ type: "error", error: { message: "Overloaded.", status: 503 } });
    expect(payloads([frame as string])[0]).toEqual({ error: { code: 503, message: "Overloaded.", status: "UNAVAILABLE" } });
    expect(stream.finished).toBe(true);
    const body = googleGenerativeAiWire.errors.render?.({ message: "Quota.", status: 429, retryAfterSeconds: 7 });
    expect(body).toEqual({
      error: {
        code: 429,
        message: "Quota.",
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "7s" }],
      },
    });
    expect(googleGenerativeAiWire.errors.read(JSON.stringify(body))).toMatchObject({
      code: "RESOURCE_EXHAUSTED",
      hintHeaders: { "retry-after-ms": "7000" },
    });
  });
});
