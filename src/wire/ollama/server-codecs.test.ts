import { describe, expect, it } from "vitest";
import { ollamaWire } from "./format.js";

const decode = (body: unknown) => {
  const decoded = ollamaWire.request.decode?.(body);
  if (!decoded) throw new Error("ollama decodes requests");
  return decoded;
};

describe("Ollama server codecs: a client's request", () => {
  it("reads system, images, tool calls and their results (paired by tool name), options, format and think", () => {
    const decoded = decode({
      model: "llama-x",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What is this?", images: ["iVBORw0KGgo="] },
        { role: "assistant", content: "", tool_calls: [{ function: { name: "lookup", arguments: { q: "cat" } } }] },
        { role: "tool", content: "A cat.", tool_name: "lookup" },
      ],
      tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } } }],
      options: { temperature: 0.1, num_predict: 50, top_k: 4, stop: ["\n\n"] },
      format: { type: "object" },
      think: "high",
      keep_alive: "5m",
    });
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.issues));
    const { request, model, stream, includeUsage } = decoded.value;
    // Ollama streams unless told otherwise, and always reports its counts.
    expect([model, stream, includeUsage]).toEqual(["llama-x", true, true]);
    expect(request.system).toBe("Be brief.");
    expect(request.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } },
        ],
      },
      { role: "assistant", content: [{ type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"cat"}' }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", content: "A cat." }] },
    ]);
    expect(request).toMatchObject({
      temperature: 0.1,
      maxTokens: 50,
      topK: 4,
      stop: ["\n\n"],
      reasoning: { enabled: true, effort: "high" },
    });
    expect(request.responseFormat).toEqual({ type: "json-schema", name: "response", schema: { type: "object" } });
    expect(request.providerOptions).toEqual({ ollama: { keep_alive: "5m" } });
  });

  it("says `stream: false` is not streamed, and refuses a request without a model", () => {
    const plain = decode({ model: "m", stream: false, messages: [] });
    expect(plain.ok && plain.value.stream).toBe(false);
    const missing = decode({ messages: [] });
    expect(missing.ok ? [] : missing.issues.map((issue) => issue.path)).toContain("model");
  });
});

describe("Ollama server codecs: streams and errors", () => {
  it("writes one NDJSON line per delta and a done line with the reason and counts; an error is an error line", () => {
    const stream = ollamaWire.stream.encoder?.({ model: "llama-x", createdSeconds: 1_700_000_000, includeUsage: true });
    if (!stream) throw new Error("ollama encodes streams");
    const lines = [
      ...stream.encode({ type: "message-start", id: "x", model: "llama-x:8b" }),
      ...stream.encode({ type: "thinking-delta", index: 0, text: "Hm." }),
      ...stream.encode({ type: "text-delta", text: "Hi" }),
      ...stream.encode({ type: "finish", reason: "length", usage: { inputTokens: 3, outputTokens: 9 } }),
    ];
    expect(lines.every((line) => line.endsWith("\n") && !line.slice(0, -1).includes("\n"))).toBe(true);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed).toEqual([
      {
        model: "llama-x:8b",
        created_at: "2023-11-14T22:13:20.000Z",
        message: { role: "assistant", content: "", thinking: "Hm." },
        done: false,
      },
      { model: "llama-x:8b", created_at: "2023-11-14T22:13:20.000Z", message: { role: "assistant", content: "Hi" }, done: false },
      {
        model: "llama-x:8b",
        created_at: "2023-11-14T22:13:20.000Z",
        message: { role: "assistant", content: "" },
        done: true,
        done_reason: "length",
        prompt_eval_count: 3,
        eval_count: 9,
      },
    ]);
    const failing = ollamaWire.stream.encoder?.({ model: "m", createdSeconds: 1, includeUsage: true });
    expect(failing?.encode({ type: "error", error: { message: "out of memory" } })).toEqual(['{"error":"out of memory"}\n']);
    expect(ollamaWire.errors.read(JSON.stringify(ollamaWire.errors.render?.({ message: "model not found", status: 404 })))).toEqual({
      message: "model not found",
    });
  });
});
