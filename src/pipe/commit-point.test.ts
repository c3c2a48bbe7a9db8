import { fc, test } from "@fast-check/vitest";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../ports/provider.js";
import { FakeClock } from "../testing/fake-clock.js";
import { ANTHROPIC_MESSAGE_STOP_BYTES, AnthropicStreamScanner } from "../wire/anthropic-messages/stream-scanner.js";
import { OpenAiChatStreamScanner } from "../wire/openai-chat/stream-scanner.js";
import { commitRawStream, QUEUE_HIGH_WATER_BYTES, type RawStreamCommitOptions } from "./commit-point.js";

const chunk = (choices: string, usage = "null") =>
  `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":${choices},"usage":${usage}}\n\n`;
const ROLE = chunk('[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]');
const HEL = chunk('[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]');
const LO = chunk('[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]');
const TOOL = chunk(
  '[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\\"q\\":"}}]},"finish_reason":null}]',
);
const TOOL_MORE = chunk('[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":null}]');
const STOP = chunk('[{"index":0,"delta":{},"finish_reason":"stop"}]');
const USAGE = chunk("[]", '{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5,"prompt_tokens_details":{"cached_tokens":1}}');
const DONE = "data: [DONE]\n\n";
const ERROR = 'data: {"error":{"message":"upstream overloaded","type":"server_error","code":"overloaded"}}\n\n';
const shown = (text: string) => text.replaceAll('"model":"gpt-x"', '"model":"openai/gpt-x"');

interface Script {
  reads: string[];
  /** After the reads: end the body (default), or hang until aborted. */
  then?: "end" | "hang";
}

function setup(script: Script, overrides: Partial<RawStreamCommitOptions> = {}) {
  const clock = new FakeClock();
  const seen: { signal?: AbortSignal; returned: boolean } = { returned: false };
  const options: RawStreamCommitOptions = {
    async open(signal) {
      seen.signal = signal;
      // A body in flowing mode, as undici's is; its generator's `finally` shows it was released.
      return Readable.from(
        (async function* () {
          try {
            for (const read of script.reads) yield Buffer.from(read);
            if (script.then === "hang") {
              await new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
            }
          } finally {
            seen.returned = true;
          }
        })(),
      );
    },
    scanner: new OpenAiChatStreamScanner({ shownModel: "openai/gpt-x", forwardUsageChunk: false }),
    failureOf: (error) => new UpstreamFailure("in-band error", { provider: "openai", message: JSON.stringify(error) }),
    clock,
    ttftTimeoutMs: 1_000,
    stallTimeoutMs: 500,
    provider: "openai",
    model: "gpt-x",
    ...overrides,
  };
  return { clock, seen, options };
}

async function drain(rest: AsyncIterable<Buffer>): Promise<{ parts: string[]; error?: unknown }> {
  const parts: string[] = [];
  try {
    for await (const part of rest) parts.push(part.toString());
    return { parts };
  } catch (error) {
    return { parts, error };
  }
}

describe("commitRawStream with the OpenAI scanner", () => {
  it("R-ST-1: lifecycle frames are held until the first content; then one buffer per upstream read", async () => {
    const { options } = setup({ reads: [ROLE, HEL, LO, STOP, USAGE + DONE] });
    const committed = await commitRawStream(options);
    expect(committed.head.toString()).toBe(shown(ROLE + HEL));
    const { parts, error } = await drain(committed.rest);
    expect(error).toBeUndefined();
    // The lane's own include_usage chunk is kept for metrics, not forwarded (R-GW-6).
    expect(parts).toEqual([shown(LO), shown(STOP), DONE]);
    expect(committed.scanner.finishReason).toBe("stop");
    expect(committed.scanner.usage).toMatchObject({ prompt_tokens: 3, prompt_tokens_details: { cached_tokens: 1 } });
    expect(committed.scanner.delivered().text).toBe("Hello");
  });

  test.prop([fc.array(fc.nat(), { maxLength: 12 })])(
    "R-ST-1: reads split anywhere (inside events, inside multi-byte text) forward the same bytes",
    async (cuts) => {
      const text = ROLE + chunk('[{"index":0,"delta":{"content":"héllo ✓"},"finish_reason":null}]') + LO + STOP + USAGE + DONE;
      const raw = Buffer.from(text);
      const reads: Buffer[] = [];
      const points = [...new Set(cuts.map((cut) => cut % (raw.length + 1)))].sort((a, b) => a - b);
      let from = 0;
      for (const point of [...points, raw.length]) {
        if (point > from) reads.push(raw.subarray(from, point));
        from = point;
      }
      const { options } = setup({ reads: [] });
      options.open = async () => Readable.from(reads);
      const committed = await commitRawStream(options);
      const { parts, error } = await drain(committed.rest);
      expect(error).toBeUndefined();
      expect(Buffer.concat([committed.head, ...parts.map((part) => Buffer.from(part))]).toString()).toBe(shown(text.replace(USAGE, "")));
      expect(parts.length).toBeLessThanOrEqual(reads.length);
    },
  );

  it("R-ST-1: an in-band error chunk before the first content fails the attempt and closes the upstream", async () => {
    const { options, seen } = setup({ reads: [ROLE, ERROR] });
    const error = await commitRawStream(options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect(String((error as UpstreamFailure).failure.message)).toContain("upstream overloaded");
    expect(seen.signal?.aborted).toBe(true);
  });

  it("R-ST-1: no first content within ttftTimeoutSeconds is a timeout (ETIMEDOUT), before anything is sent", async () => {
    const { options, clock, seen } = setup({ reads: [ROLE], then: "hang" }, { ttftTimeoutMs: 400, stallTimeoutMs: 5_000 });
    const outcome = commitRawStream(options).catch((caught: unknown) => caught);
    await clock.advanceAsync(399);
    expect(seen.signal?.aborted).toBe(false);
    await clock.advanceAsync(1);
    const error = (await outcome) as UpstreamFailure;
    expect(error.failure.code).toBe("ETIMEDOUT");
    expect(error.message).toContain("ttftTimeoutSeconds");
  });

  it("R-ST-2: an error chunk after the commit forwards what came before it, then throws (no [DONE])", async () => {
    const { options } = setup({ reads: [ROLE + HEL, LO + ERROR + DONE] });
    const committed = await commitRawStream(options);
    const { parts, error } = await drain(committed.rest);
    expect(parts).toEqual([shown(LO)]);
    expect(error).toBeInstanceOf(UpstreamFailure);
  });

  it("R-ST-2: a cut after the commit without a finish reason throws a cut (ECONNRESET)", async () => {
    const { options } = setup({ reads: [ROLE + HEL, LO] });
    const committed = await commitRawStream(options);
    const { parts, error } = await drain(committed.rest);
    expect(parts).toEqual([shown(LO)]);
    expect((error as UpstreamFailure).failure.code).toBe("ECONNRESET");
  });

  it("R-ST-2: a stall after the commit throws a timeout", async () => {
    const { options, clock } = setup({ reads: [ROLE + HEL], then: "hang" });
    const committed = await commitRawStream(options);
    const pending = drain(committed.rest);
    await clock.advanceAsync(500);
    const { error } = await pending;
    expect((error as UpstreamFailure).message).toContain("streamStallSeconds");
  });

  it("R-ST-2: a stream that ends with a finish reason but no [DONE] is complete; [DONE] is supplied", async () => {
    const { options } = setup({ reads: [ROLE + HEL, STOP] });
    const committed = await commitRawStream(options);
    const { parts, error } = await drain(committed.rest);
    expect(error).toBeUndefined();
    expect(parts.join("")).toBe(shown(STOP) + DONE);
  });

  it("R-ST-2: finish and usage complete the answer at once, without waiting for [DONE]", async () => {
    const { options, seen } = setup({ reads: [ROLE + HEL, STOP + USAGE], then: "hang" });
    const committed = await commitRawStream(options);
    const { parts, error } = await drain(committed.rest);
    expect(error).toBeUndefined();
    expect(parts.join("")).toBe(shown(STOP) + DONE);
    expect(seen.returned).toBe(true);
  });

  it("R-ST-2: malformed chunks are skipped and counted, not forwarded", async () => {
    const { options } = setup({ reads: [ROLE + HEL, "data: {not json\n\n" + "data: garbage\n\n" + LO, STOP + DONE] });
    const committed = await commitRawStream(options);
    const { parts } = await drain(committed.rest);
    expect(parts.join("")).toBe(shown(LO + STOP) + DONE);
    expect(committed.scanner.malformedChunks).toBe(2);
  });

  it("R-ST-1: a tool-call delta commits; the delivered tool call is kept for the runner", async () => {
    const { options } = setup({ reads: [ROLE, TOOL, TOOL_MORE, STOP, USAGE, DONE] });
    const committed = await commitRawStream(options);
    await drain(committed.rest);
    expect(committed.scanner.delivered().toolCalls).toEqual([{ index: 0, id: "call_1", name: "lookup", arguments: '{"q":1}' }]);
  });
});

const sse = (type: string, data: string) => `event: ${type}\ndata: ${data}\n\n`;
const START = sse(
  "message_start",
  '{"type":"message_start","message":{"id":"m","model":"claude-x","usage":{"input_tokens":5,"cache_read_input_tokens":7}}}',
);
const BLOCK = sse("content_block_start", '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}');
const TEXT = sse("content_block_delta", '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}');
const DELTA = sse("message_delta", '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}');
const STOP_EVENT = sse("message_stop", '{"type":"message_stop"}');
const OVERLOADED = sse("error", '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');

describe("commitRawStream with the Anthropic scanner", () => {
  const anthropic = () => ({
    scanner: new AnthropicStreamScanner({ shownModel: "anthropic/claude-x" }),
    provider: "anthropic",
    model: "claude-x",
  });

  it("R-ST-1 / R-ST-3: message_start is held until the first text and names the model that answered", async () => {
    const { options } = setup({ reads: [START, BLOCK, TEXT, DELTA + STOP_EVENT] }, anthropic());
    const committed = await commitRawStream(options);
    expect(committed.head.toString()).toBe(START.replace('"claude-x"', '"anthropic/claude-x"') + BLOCK + TEXT);
    const { parts, error } = await drain(committed.rest);
    expect(error).toBeUndefined();
    expect(parts).toEqual([DELTA + STOP_EVENT]);
    expect(committed.scanner.finishReason).toBe("end_turn");
    expect(committed.scanner.usage).toEqual({ input_tokens: 5, cache_read_input_tokens: 7, output_tokens: 9 });
  });

  it("R-ST-1: event: error before the first text fails over", async () => {
    const { options } = setup({ reads: [START, OVERLOADED] }, anthropic());
    expect(await commitRawStream(options).catch((caught: unknown) => caught)).toBeInstanceOf(UpstreamFailure);
  });

  it("R-ST-2: event: error after the commit throws after the bytes before it", async () => {
    const { options } = setup({ reads: [START + BLOCK + TEXT, TEXT + OVERLOADED] }, anthropic());
    const committed = await commitRawStream(options);
    const { parts, error } = await drain(committed.rest);
    expect(parts).toEqual([TEXT]);
    expect(error).toBeInstanceOf(UpstreamFailure);
  });

  it("R-ST-2: a stop reason without message_stop is complete; message_stop is supplied", async () => {
    const { options } = setup({ reads: [START + BLOCK + TEXT, DELTA] }, anthropic());
    const committed = await commitRawStream(options);
    const { parts, error } = await drain(committed.rest);
    expect(error).toBeUndefined();
    expect(parts.join("")).toBe(DELTA + 'event: message_stop\ndata: {"type":"message_stop"}\n\n');
    expect(committed.scanner.delivered().text).toBe("Hi");
  });
});

describe("commitRawStream reading a pushed body", () => {
  it("R-ST-2: a consumer that falls behind pauses the body at the queue's high water and loses nothing", async () => {
    const content = chunk(`[{"index":0,"delta":{"content":"${"x".repeat(1000)}"},"finish_reason":null}]`);
    const total = 400;
    let produced = 0;
    const { options } = setup({ reads: [] });
    options.open = async () =>
      Readable.from(
        (function* () {
          yield Buffer.from(ROLE + HEL);
          for (; produced < total; produced += 1) yield Buffer.from(content);
          yield Buffer.from(STOP + DONE);
        })(),
      );
    const committed = await commitRawStream(options);
    // Nobody reads for a while: the body is paused once about QUEUE_HIGH_WATER_BYTES wait unread.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(produced).toBeLessThan(Math.ceil(QUEUE_HIGH_WATER_BYTES / content.length) + 40);
    const { parts, error } = await drain(committed.rest);
    expect(error).toBeUndefined();
    expect(parts.length).toBe(total + 1);
    expect(parts.at(-1)).toBe(shown(STOP) + DONE);
  });

  it("R-ST-2: no stall is counted while the consumer is not waiting on the upstream", async () => {
    const { options, clock } = setup({ reads: [ROLE + HEL], then: "hang" });
    const committed = await commitRawStream(options);
    // The client is slow to read on: ten stall budgets pass with nobody waiting.
    await clock.advanceAsync(5_000);
    const iterator = committed.rest[Symbol.asyncIterator]();
    const read = iterator.next().catch((caught: unknown) => caught);
    await clock.advanceAsync(499);
    expect(await Promise.race([read, Promise.resolve("waiting")])).toBe("waiting");
    await clock.advanceAsync(1);
    expect(((await read) as UpstreamFailure).message).toContain("streamStallSeconds");
  });

  it("R-ST-1: a caller abort while the call is still opening rejects at once, even if the upstream ignores it", async () => {
    const caller = new AbortController();
    const { options } = setup({ reads: [] }, { callerSignal: caller.signal });
    options.open = () => new Promise<never>(() => {});
    const outcome = commitRawStream(options).catch((caught: unknown) => caught);
    caller.abort(new DOMException("client gone", "AbortError"));
    expect(((await outcome) as DOMException).message).toBe("client gone");
  });

  it("R-ST-2: a caller abort after the commit rejects the waiting read at once and releases the body", async () => {
    const caller = new AbortController();
    const { options, seen } = setup({ reads: [ROLE + HEL], then: "hang" }, { callerSignal: caller.signal });
    const committed = await commitRawStream(options);
    const pending = drain(committed.rest);
    caller.abort(new DOMException("client gone", "AbortError"));
    expect(((await pending).error as DOMException).message).toBe("client gone");
    expect(seen.signal?.aborted).toBe(true);
  });

  it("R-ST-2: a complete answer's body is handed to releaseComplete (the lane drains it); a failed one is destroyed", async () => {
    const released: unknown[] = [];
    const complete = setup({ reads: [ROLE + HEL, STOP + USAGE, DONE] }, { releaseComplete: (body) => released.push(body) });
    const committed = await commitRawStream(complete.options);
    expect((await drain(committed.rest)).error).toBeUndefined();
    expect(released).toHaveLength(1);
    expect(complete.seen.signal?.aborted).toBe(false);

    const failed = setup({ reads: [ROLE + HEL, LO] }, { releaseComplete: (body) => released.push(body) });
    const cut = await commitRawStream(failed.options);
    expect(((await drain(cut.rest)).error as UpstreamFailure).failure.code).toBe("ECONNRESET");
    expect(released).toHaveLength(1);
    expect(failed.seen.signal?.aborted).toBe(true);
  });
});

describe("commitRawStream when the scanner itself throws", () => {
  it("R-ST-1: the throw fails the attempt (so the runner fails over) and releases the body, instead of escaping the body's event", async () => {
    const { options, seen } = setup({ reads: [ROLE, HEL], then: "hang" });
    const broken = new Error("scanner bug");
    options.scanner = Object.assign(Object.create(options.scanner), {
      push: () => {
        throw broken;
      },
    });
    expect(await commitRawStream(options).catch((caught: unknown) => caught)).toBe(broken);
    expect(seen.signal?.aborted).toBe(true);
  });
});

describe("the scanners' event sink (what an assembled answer is built from, R-ST-6)", () => {
  it("R-ST-6: every kept event reaches the sink once, in order, and so does the terminal frame supplied at the end", () => {
    const seen: unknown[] = [];
    const scanner = new AnthropicStreamScanner({
      shownModel: "anthropic/claude-x",
      keepUpstreamModel: true,
      onEvent: (event) => seen.push(event),
    });
    // One read with three events, then one with the stop reason; the upstream ends without message_stop.
    scanner.push(Buffer.from(START + BLOCK + TEXT));
    scanner.push(Buffer.from(DELTA));
    expect(scanner.end()).toEqual({ complete: true, forward: ANTHROPIC_MESSAGE_STOP_BYTES });
    expect(seen.map((event) => (event as { type: string }).type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "message_delta",
      "message_stop",
    ]);
  });

  it("R-ST-6: an OpenAI stream's events reach the sink as parsed JSON; [DONE] and malformed chunks do not", () => {
    const seen: unknown[] = [];
    const scanner = new OpenAiChatStreamScanner({
      shownModel: "openai/gpt-x",
      forwardUsageChunk: true,
      keepUpstreamModel: true,
      onEvent: (event) => seen.push(event),
    });
    scanner.push(Buffer.from(ROLE + HEL + "data: {not json\n\n"));
    scanner.push(Buffer.from(STOP + USAGE + DONE));
    expect(seen).toEqual([ROLE, HEL, STOP, USAGE].map((event) => JSON.parse(event.slice("data: ".length))));
  });
});
