import { describe, expect, it } from "vitest";
import type { CanonicalResponse, CanonicalStreamEvent } from "../../ports/canonical.js";
import { eventField, forEachEvent } from "../shared/sse-bytes.js";
import { decodeResponsesResponse } from "./decode-response.js";
import { ResponsesStreamTranslator } from "./decode-stream.js";
import { renderResponsesResponse } from "./encode-response.js";
import { encodeResponsesStream } from "./encode-stream.js";
import { responsesResponseSchema, responsesStreamEventSchema } from "./schemas.js";
import { CANONICAL_TO_RESPONSES_STATUS, finishReasonFromResponses } from "./status.js";
import { renderResponsesUsage, usageFromResponses } from "./usage.js";

const usage = { inputTokens: 120, outputTokens: 40, cacheReadTokens: 100, cacheWriteTokens: 8, reasoningTokens: 12 };

const answer: CanonicalResponse = {
  id: "resp_1",
  model: "openai-codex/gpt-5",
  content: [
    { type: "text", text: "Let me look." },
    { type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"cat"}' },
  ],
  finishReason: "tool_calls",
  usage,
};

function sseEvents(frames: string[]): { name: string | undefined; data: Record<string, any> }[] {
  const bytes = Buffer.from(frames.join(""));
  const events: { name: string | undefined; data: Record<string, any> }[] = [];
  forEachEvent(bytes, bytes.length, (start, end) => {
    events.push({ name: eventField(bytes, start, end, "event"), data: JSON.parse(eventField(bytes, start, end, "data") ?? "{}") });
  });
  return events;
}

describe("Responses answers (R-GW-2, R-GW-7)", () => {
  it("R-GW-7: usage with cached input, cache writes and reasoning round-trips", () => {
    const rendered = renderResponsesUsage(usage);
    expect(rendered).toEqual({
      input_tokens: 120,
      input_tokens_details: { cached_tokens: 100, cache_write_tokens: 8 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 160,
    });
    expect(usageFromResponses(rendered)).toEqual(usage);
  });

  it("R-GW-2: one status table maps both directions", () => {
    for (const reason of ["stop", "length", "content_filter"] as const) {
      const { status, incompleteReason } = CANONICAL_TO_RESPONSES_STATUS[reason];
      expect(finishReasonFromResponses(status, incompleteReason, false)).toBe(reason);
    }
    expect(finishReasonFromResponses("completed", undefined, true)).toBe("tool_calls");
    expect(finishReasonFromResponses("failed", undefined, false)).toBe("error");
    expect(finishReasonFromResponses("some_new_status", undefined, false)).toBe("stop");
  });

  it("R-GW-2: a canonical answer renders as the SDK's Response and decodes back", () => {
    const body = renderResponsesResponse(answer, { createdSeconds: 1_700_000_000 });
    expect(body).toMatchObject({ object: "response", status: "completed", store: false, model: "openai-codex/gpt-5" });
    expect(body.output.map((item) => item.type)).toEqual(["message", "function_call"]);
    const decoded = decodeResponsesResponse(responsesResponseSchema.parse(body)).response;
    expect(decoded).toEqual(answer);

    const cut = renderResponsesResponse(
      { ...answer, content: [{ type: "text", text: "Trunc" }], finishReason: "length" },
      { createdSeconds: 1 },
    );
    expect(cut).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
  });

  it("R-ST-2: a stream is encoded in the API's event order and decodes to the same events", () => {
    const events: CanonicalStreamEvent[] = [
      { type: "message-start", id: "resp_2", model: "m" },
      { type: "text-delta", text: "Let " },
      { type: "text-delta", text: "me look." },
      { type: "tool-call-delta", index: 0, id: "call_1", name: "lookup" },
      { type: "tool-call-delta", index: 0, argumentsDelta: '{"q":' },
      { type: "tool-call-delta", index: 0, argumentsDelta: '"cat"}' },
      { type: "finish", reason: "tool_calls", usage },
    ];
    const wire = sseEvents(encodeResponsesStream(events, { createdSeconds: 1 }));
    expect(wire.map((event) => event.name)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(wire.map((event) => event.data.sequence_number)).toEqual(wire.map((_, index) => index));
    expect(wire.every((event) => event.data.type === event.name)).toBe(true);
    const completed = wire.at(-1)?.data.response;
    expect(completed.output[1]).toMatchObject({ type: "function_call", call_id: "call_1", arguments: '{"q":"cat"}', status: "completed" });
    expect(completed.usage.input_tokens_details.cached_tokens).toBe(100);

    const translator = new ResponsesStreamTranslator({ model: "fallback", createId: () => "x" });
    const decoded = wire.flatMap((event) => translator.accept(responsesStreamEventSchema.parse(event.data)).events);
    expect(decoded).toEqual(events);
  });

  it("R-ST-2: a failure after the first token ends the stream with response.failed and nothing after it", () => {
    const frames = encodeResponsesStream(
      [
        { type: "message-start", id: "resp_3", model: "m" },
        { type: "text-delta", text: "Hi" },
        { type: "error", error: { message: "upstream went away", code: "stream_interrupted" } },
        { type: "text-delta", text: "never" },
      ],
      { createdSeconds: 1 },
    );
    const wire = sseEvents(frames);
    expect(wire.at(-1)?.name).toBe("response.failed");
    expect(wire.at(-1)?.data.response.error).toEqual({ code: "stream_interrupted", message: "upstream went away" });
    expect(wire.some((event) => event.data.delta === "never")).toBe(false);
    const translator = new ResponsesStreamTranslator({ model: "m", createId: () => "x" });
    const steps = wire.map((event) => translator.accept(responsesStreamEventSchema.parse(event.data)));
    expect(steps.at(-1)?.failure).toEqual({ message: "upstream went away", code: "stream_interrupted" });
  });

  it("R-ST-2: a server that streams no deltas still has its answer taken from response.completed", () => {
    const translator = new ResponsesStreamTranslator({ model: "m", createId: () => "x" });
    const body = renderResponsesResponse(answer, { createdSeconds: 1 });
    const step = translator.accept(responsesStreamEventSchema.parse({ type: "response.completed", response: body, sequence_number: 0 }));
    expect(step.complete).toBe(true);
    expect(step.events).toEqual([
      { type: "message-start", id: "resp_1", model: "openai-codex/gpt-5" },
      { type: "text-delta", text: "Let me look." },
      { type: "tool-call-delta", index: 0, id: "call_1", name: "lookup", argumentsDelta: '{"q":"cat"}' },
      { type: "finish", reason: "tool_calls", usage },
    ]);
  });
});
