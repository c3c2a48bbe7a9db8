import { describe, expect, it } from "vitest";
import { encodeResponsesStream } from "./encode-stream.js";
import { ResponsesStreamScanner } from "./stream-scanner.js";

const frames = encodeResponsesStream(
  [
    { type: "message-start", id: "resp_1", model: "gpt-5" },
    { type: "text-delta", text: "Hello" },
    { type: "text-delta", text: " there" },
    { type: "tool-call-delta", index: 0, id: "call_1", name: "f" },
    { type: "tool-call-delta", index: 0, argumentsDelta: "{}" },
    { type: "finish", reason: "tool_calls", usage: { inputTokens: 5, outputTokens: 3 } },
  ],
  { createdSeconds: 1 },
);

describe("Responses same-wire stream scanner (R-GW-6, R-ST-1, R-ST-2)", () => {
  it("R-ST-1: commits at the first text delta, completes at response.completed with its usage, names the answering model", () => {
    const scanner = new ResponsesStreamScanner({ shownModel: "openai-codex/gpt-5" });
    const [created, inProgress, ...rest] = frames;
    scanner.push(Buffer.from(`${created}${inProgress}`));
    expect(scanner.committed).toBe(false);
    const addedAndFirst = rest.slice(0, 3).join("");
    // Split in the middle of an event: the tail waits for the next read.
    const forwarded: Buffer[] = [];
    for (const piece of [addedAndFirst.slice(0, 40), addedAndFirst.slice(40)]) {
      const step = scanner.push(Buffer.from(piece));
      if (step.forward) forwarded.push(step.forward);
    }
    expect(scanner.committed).toBe(true);
    expect(scanner.complete).toBe(false);
    const last = scanner.push(Buffer.from(rest.slice(3).join("")));
    if (last.forward) forwarded.push(last.forward);
    expect(scanner.complete).toBe(true);
    expect(scanner.finishReason).toBe("completed");
    expect(scanner.usage).toMatchObject({ input_tokens: 5, output_tokens: 3 });
    expect(scanner.end()).toEqual({ complete: true });
    expect(Buffer.concat(forwarded).toString()).not.toContain('"model":"gpt-5"');
    expect(scanner.delivered()).toEqual({ text: "Hello there", toolCalls: [{ index: 0, id: "call_1", name: "f", arguments: "{}" }] });
  });

  it("R-ST-1: the first created event is forwarded with the answering model swapped in", () => {
    const scanner = new ResponsesStreamScanner({ shownModel: "openai-codex/gpt-5" });
    const step = scanner.push(Buffer.from(frames[0] as string));
    expect(step.forward?.toString()).toContain('"model":"openai-codex/gpt-5"');
  });

  it("R-ST-2: an error event before the first token is a failure and is not forwarded", () => {
    const scanner = new ResponsesStreamScanner({ shownModel: "x/y" });
    const error =
      'event: error\ndata: {"type":"error","code":"rate_limit_exceeded","message":"slow down","param":null,"sequence_number":2}\n\n';
    const step = scanner.push(Buffer.from(`${frames[0]}${error}`));
    expect(step.failure).toEqual({ message: "slow down", code: "rate_limit_exceeded" });
    expect(step.forward?.toString()).not.toContain("slow down");
    expect(scanner.committed).toBe(false);
  });

  it("R-ST-2: a stream cut before response.completed is not complete; malformed events are skipped and counted", () => {
    const scanner = new ResponsesStreamScanner({ shownModel: "x/y" });
    const step = scanner.push(Buffer.from(`${frames.slice(0, 5).join("")}event: response.output_text.delta\ndata: {"broken\n\n`));
    expect(step.forward?.toString()).not.toContain("broken");
    expect(scanner.malformedChunks).toBe(1);
    expect(scanner.committed).toBe(true);
    expect(scanner.end()).toEqual({ complete: false });
  });

  it("R-ST-2: response.incomplete ends the answer with its reason", () => {
    const incomplete = encodeResponsesStream(
      [
        { type: "message-start", id: "r", model: "m" },
        { type: "text-delta", text: "cut" },
        { type: "finish", reason: "length", usage: { inputTokens: 1, outputTokens: 1 } },
      ],
      { createdSeconds: 1 },
    );
    const scanner = new ResponsesStreamScanner({ shownModel: "x/y" });
    scanner.push(Buffer.from(incomplete.join("")));
    expect(scanner.complete).toBe(true);
    expect(scanner.finishReason).toBe("incomplete:max_output_tokens");
  });
});
