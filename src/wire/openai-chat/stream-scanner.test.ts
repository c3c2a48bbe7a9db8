import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { OpenAiChatStreamScanner } from "./stream-scanner.js";

const frame = (json: unknown) => `data: ${JSON.stringify(json)}\n\n`;
const chunkOf = (content: string, finish: string | null, usage: unknown = null, extraKey = "extra") =>
  frame({
    id: "c",
    object: "chat.completion.chunk",
    model: "gpt-x",
    choices: [{ index: 0, delta: { content, [extraKey]: 1 }, finish_reason: finish }],
    usage,
  });
const scanner = (options: Partial<ConstructorParameters<typeof OpenAiChatStreamScanner>[0]> = {}) =>
  new OpenAiChatStreamScanner({ shownModel: "openai/gpt-x", forwardUsageChunk: true, ...options });

describe("the OpenAI chat stream scanner's decision keys", () => {
  it("R-ST-2: a key spelled inside a string is text, not the finish, the usage or an error", () => {
    const scanned = scanner();
    const step = scanned.push(Buffer.from(chunkOf('say "finish_reason": "stop", "usage": {"x":1} and "error": {"e":1}', null)));
    expect(step.failure).toBeUndefined();
    expect(scanned.committed).toBe(true);
    expect(scanned.finishReason).toBeUndefined();
    expect(scanned.usage).toBeUndefined();
  });

  it("R-ST-2: keys with whitespace around the colon are found; a null error is no error", () => {
    const scanned = scanner();
    scanned.push(
      Buffer.from(
        'data: {"model":"gpt-x","error" : null,"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason" :  "length"}],"usage" : {"prompt_tokens":1,"completion_tokens":2}}\n\n',
      ),
    );
    expect(scanned.finishReason).toBe("length");
    expect(scanned.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2 });
    expect(scanned.complete).toBe(true);
  });

  it("R-GW-7: a nested key named usage or finish_reason does not hide the chunk's own", () => {
    const scanned = scanner();
    scanned.push(
      Buffer.from(
        'data: {"model":"gpt-x","choices":[{"index":0,"delta":{"content":"hi","usage":1,"finish_reason":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2}}\n\n',
      ),
    );
    expect(scanned.finishReason).toBe("stop");
    expect(scanned.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2 });
  });

  it("R-ST-2: an error object fails the stream, and nothing from it on is forwarded", () => {
    const scanned = scanner();
    const first = chunkOf("Hel", null);
    const step = scanned.push(Buffer.from(first + 'data: {"error" : {"message":"overloaded"}}\n\n' + chunkOf("lo", null)));
    expect(step.failure).toEqual({ message: "overloaded" });
    expect(step.forward?.toString()).toBe(first.replace('"model":"gpt-x"', '"model":"openai/gpt-x"'));
  });

  const tricky = fc
    .array(fc.constantFrom('"', "\\", "finish_reason", "usage", "error", ":", " ", "{", "}", "null", "stop", "a", "é"), { maxLength: 12 })
    .map((parts) => parts.join(""));
  test.prop([
    tricky,
    // A key may spell one too: `{"\"finish_reason": 1}` has an unescaped quote and a colon right after the name.
    fc.oneof(tricky, fc.constantFrom('"finish_reason', '"usage', '"error')),
    fc.constantFrom(null, "stop", "length", "tool_calls"),
    fc.constantFrom(null, { prompt_tokens: 3, completion_tokens: 4 }),
  ])("R-ST-2: the finish and usage found are the chunk's own, whatever its text and keys say", (content, key, finish, usage) => {
    const scanned = scanner();
    // The key comes before the real finish_reason and usage, so a false find would be the first one.
    scanned.push(Buffer.from(chunkOf(content, finish, usage, key)));
    expect(scanned.finishReason).toBe(finish ?? undefined);
    expect(scanned.usage).toEqual(usage ?? undefined);
  });
});

describe("an assembling scanner (assembleOnly, R-ST-6)", () => {
  it("R-ST-6: hands every kept event to its sink and forwards no bytes; an in-band error still fails", () => {
    const seen: unknown[] = [];
    const scanned = scanner({ keepUpstreamModel: true, assembleOnly: true, onEvent: (event) => seen.push(event) });
    expect(scanned.push(Buffer.from(chunkOf("Hel", null) + chunkOf("lo", null))).forward).toBeUndefined();
    const failed = scanned.push(Buffer.from('data: {"error":{"message":"overloaded"}}\n\n'));
    expect(failed).toEqual({ forward: undefined, failure: { message: "overloaded" } });
    expect(seen.map((event) => (event as { choices: { delta: { content: string } }[] }).choices[0]?.delta.content)).toEqual(["Hel", "lo"]);
  });

  it("R-ST-2: the terminal frame it supplies at the end goes to the sink, not out as bytes", () => {
    const seen: unknown[] = [];
    const scanned = scanner({ keepUpstreamModel: true, assembleOnly: true, onEvent: (event) => seen.push(event) });
    scanned.push(Buffer.from(chunkOf("Hi", "stop")));
    expect(scanned.end()).toEqual({ complete: true });
    expect(seen).toHaveLength(1);
  });
});

describe("the OpenAI chat stream scanner's delivered answer (R-GW-10)", () => {
  it("R-GW-10: names the answer's id, created and system_fingerprint as the client got them, with its text", () => {
    const scanned = scanner();
    const chunk = (content: string) =>
      frame({
        id: "chatcmpl-7",
        object: "chat.completion.chunk",
        created: 1700000123,
        model: "gpt-x",
        system_fingerprint: "fp_7",
        choices: [{ index: 0, delta: { content }, finish_reason: null }],
      });
    scanned.push(Buffer.from(chunk("Hel") + chunk("lo")));
    expect(scanned.delivered()).toMatchObject({
      text: "Hello",
      identity: { id: "chatcmpl-7", createdSeconds: 1700000123, fingerprint: "fp_7" },
    });
  });

  it("R-GW-10: an upstream without created or fingerprint gives the id alone", () => {
    const scanned = scanner();
    scanned.push(Buffer.from(chunkOf("Hi", null)));
    expect(scanned.delivered().identity).toEqual({ id: "c" });
  });
});
