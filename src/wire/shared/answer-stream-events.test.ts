import { describe, expect, it } from "vitest";
import type { CanonicalResponse } from "../../ports/canonical.js";
import { answerStreamEvents } from "./answer-stream-events.js";
import { CanonicalResponseAssembler } from "./assemble-canonical-response.js";

function reassembled(response: CanonicalResponse): CanonicalResponse {
  const assembler = new CanonicalResponseAssembler({ id: "fallback", model: "fallback" });
  for (const event of answerStreamEvents(response)) assembler.accept(event);
  return assembler.response();
}

describe("answerStreamEvents (R-GW-10)", () => {
  it("R-GW-10: a complete answer as events assembles back to the same answer (thinking, text, tool calls, usage)", () => {
    const response: CanonicalResponse = {
      id: "msg_1",
      model: "m",
      thinking: [
        { type: "thinking", text: "let me see", signature: "sig" },
        { type: "thinking", text: "", redactedData: "enc" },
      ],
      content: [
        { type: "text", text: "Looking it up." },
        { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "tool-call", id: "call_2", name: "get_time", arguments: "{}" },
        { type: "text", text: "Done." },
      ],
      finishReason: "tool_calls",
      usage: { inputTokens: 12, outputTokens: 7, cacheReadTokens: 2 },
      logprobs: { content: [{ token: "Looking", logprob: -0.1 }] },
      dropped: ["seed"],
    };
    expect(reassembled(response)).toEqual(response);
  });

  it("R-GW-10: the events open with the answer's id and model and end with its finish", () => {
    const events = answerStreamEvents({
      id: "chatcmpl-9",
      model: "gpt",
      content: [{ type: "text", text: "hi" }],
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    expect(events[0]).toEqual({ type: "message-start", id: "chatcmpl-9", model: "gpt" });
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", usage: { inputTokens: 1, outputTokens: 1 } });
    expect(events.filter((event) => event.type === "text-delta")).toEqual([{ type: "text-delta", text: "hi" }]);
  });

  it("R-GW-10: an empty answer is a start and a finish, no empty delta", () => {
    const events = answerStreamEvents({
      id: "x",
      model: "m",
      content: [{ type: "text", text: "" }],
      finishReason: "length",
      usage: { inputTokens: 3, outputTokens: 0 },
    });
    expect(events.map((event) => event.type)).toEqual(["message-start", "finish"]);
  });
});
