/**
 * The streaming commit point over real sockets (R-ST-1…R-ST-3): failures before the first token fail over,
 * failures after it surface as SDK errors (never a clean finish), a missing [DONE] still completes, and a
 * client that goes away aborts the upstream call.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { readChatStream } from "./fixtures/read-streams.js";
import { CLIENT_TOKEN, harnessClosedAfterEachTest, KEYS, profileStats } from "./fixtures/gateway-harness.js";

const start = harnessClosedAfterEachTest();

const streamed = { model: "detour", stream: true as const, messages: [{ role: "user" as const, content: "tell me a story" }] };

describe("streaming through the gateway", () => {
  it("R-ST-2: a cut after the commit surfaces as an OpenAI SDK error, never a clean finish", async () => {
    const { openai } = await start({ scenario: [{ steps: [{ fault: "stream-cut", afterTokens: 3 }], then: "repeat-last" }] });
    const stream = await openai.chat.completions.create(streamed);
    let text = "";
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    })().catch((caught: unknown) => caught);
    expect(text.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(String((error as Error).message)).toContain("failed after it started");
  });

  it("R-ST-2: a stall after the commit surfaces as an Anthropic SDK error and is recorded on the profile", async () => {
    const { anthropic, gateway } = await start({ scenario: [{ steps: [{ fault: "stall", afterTokens: 2 }], then: "repeat-last" }] });
    const stream = anthropic.messages.stream({ model: "detour", max_tokens: 50, messages: [{ role: "user", content: "hi" }] });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIError);
    expect((await profileStats({ gateway }, "openai:a"))?.failureCounts?.timeout).toBe(1);
  });

  it("R-ST-1: no first token within ttftTimeoutSeconds fails over before anything reaches the client", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { api: "openai" }, steps: [{ fault: "slow-first-token", delayMs: 3_000 }], then: "repeat-last" }],
    });
    const startedAt = Date.now();
    const stream = await openai.chat.completions.create(streamed);
    const result = await readChatStream(stream);
    expect(result.text).toContain("Hello from mock-claude");
    expect(result.finish).toBe("stop");
    expect(result.model).toBe("anthropic/mock-claude");
    // Two openai profiles at 0.3 s each, far below the 3 s the upstream would have taken.
    expect(Date.now() - startedAt).toBeLessThan(2_500);
    expect(mock.counts().byKey[KEYS.openaiA]).toBe(1);
  });

  it("R-ST-1: an in-band error event before the first token fails over", async () => {
    const { anthropic } = await start({
      model: { primary: "anthropic/mock-claude", fallbacks: ["openai/mock-gpt"] },
      scenario: [{ match: { api: "anthropic" }, steps: [{ fault: "stream-error", afterTokens: 0 }], then: "repeat-last" }],
    });
    const stream = anthropic.messages.stream({ model: "detour", max_tokens: 50, messages: [{ role: "user", content: "hi" }] });
    const message = await stream.finalMessage();
    expect(message.model).toBe("openai/mock-gpt");
  });

  it("R-ST-2: a stream without [DONE] but with a finish reason completes with its usage; malformed chunks are skipped", async () => {
    const { openai } = await start({
      scenario: [{ match: { api: "openai" }, steps: ["missing-done", { fault: "malformed-chunk", afterTokens: 1 }] }],
    });
    const first = await readChatStream(await openai.chat.completions.create({ ...streamed, stream_options: { include_usage: true } }));
    expect(first.finish).toBe("stop");
    expect(first.text).toContain("Hello from mock-gpt");
    const second = await readChatStream(await openai.chat.completions.create(streamed));
    expect(second.finish).toBe("stop");
    expect(second.text).toContain("Hello from mock-gpt");
    expect(second.text).not.toContain("{");
  });

  it("R-ST-3: a streamed answer names the model that answered in every chunk", async () => {
    const { anthropic } = await start({
      scenario: [{ match: { api: "openai" }, steps: ["server-error"], then: "repeat-last" }],
    });
    const events: string[] = [];
    const stream = anthropic.messages.stream({ model: "detour", max_tokens: 50, messages: [{ role: "user", content: "hi" }] });
    stream.on("streamEvent", (event) => {
      if (event.type === "message_start") events.push(event.message.model);
    });
    const message = await stream.finalMessage();
    expect(events).toEqual(["anthropic/mock-claude"]);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });
});

/**
 * An upstream that accepts requests and never finishes them, recording when each connection goes away. With
 * `firstChunk` a streamed request gets its SSE headers and that one OpenAI chunk (the commit), then silence.
 */
async function startSilentUpstream(options: { firstChunk?: string } = {}) {
  const requests: IncomingMessage[] = [];
  const closed: number[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request);
    response.on("close", () => closed.push(Date.now()));
    if (options.firstChunk === undefined) return;
    const chunk = options.firstChunk;
    let body = "";
    request.on("data", (part: Buffer) => (body += part.toString("utf8")));
    request.on("end", () => {
      if (!(JSON.parse(body) as { stream?: boolean }).stream) return;
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${chunk}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("client disconnect", () => {
  it("R-ST-1: a client abort reaches the upstream call (non-streamed and streamed)", async () => {
    const upstream = await startSilentUpstream();
    try {
      const { openai } = await start({
        baseUrls: { openai: `${upstream.url}/v1` },
        // The silent upstream would hold a non-streamed call for the provider timeout; the abort must not wait.
        gateway: { ttftTimeoutSeconds: 30, streamStallSeconds: 30 },
      });
      for (const stream of [false, true]) {
        const before = upstream.requests.length;
        const controller = new AbortController();
        const pending = openai.chat.completions
          .create({ model: "openai/mock-gpt", stream, messages: [{ role: "user", content: "hi" }] }, { signal: controller.signal })
          .catch((caught: unknown) => caught);
        await waitFor(() => upstream.requests.length > before);
        const closedBefore = upstream.closed.length;
        controller.abort();
        expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
        await waitFor(() => upstream.closed.length > closedBefore);
      }
    } finally {
      await upstream.close();
    }
  });
});

describe("client disconnect after the commit", () => {
  it("R-ST-2: a client that aborts mid-stream closes the upstream call and is not recorded as a failure", async () => {
    const firstChunk = JSON.stringify({
      id: "chatcmpl-held",
      object: "chat.completion.chunk",
      created: 1,
      model: "mock-gpt",
      choices: [{ index: 0, delta: { role: "assistant", content: "Once upon" }, finish_reason: null }],
    });
    const upstream = await startSilentUpstream({ firstChunk });
    try {
      const { openai, gateway } = await start({
        baseUrls: { openai: `${upstream.url}/v1` },
        // Long watchdogs: only the client's abort may end this stream.
        gateway: { ttftTimeoutSeconds: 30, streamStallSeconds: 30 },
      });
      const controller = new AbortController();
      const stream = await openai.chat.completions.create(
        { model: "openai/mock-gpt", stream: true, messages: [{ role: "user", content: "hi" }] },
        { signal: controller.signal },
      );
      let text = "";
      const ended = (async () => {
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? "";
          controller.abort();
        }
      })().catch((caught: unknown) => caught);
      // The SDK's stream iterator ends quietly on its own abort; anything else would be a real error.
      const outcome = await ended;
      expect(outcome === undefined || outcome instanceof OpenAI.APIUserAbortError).toBe(true);
      expect(text).toBe("Once upon");
      await waitFor(() => upstream.closed.length > 0);
      expect((await profileStats({ gateway }, "openai:a"))?.errorCount ?? 0).toBe(0);
    } finally {
      await upstream.close();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("a slow client", () => {
  it("R-GW-6: a same-wire stream to a client that stops reading pauses the upstream instead of buffering the answer", async () => {
    // An upstream with an endless answer, written as fast as its socket takes it; counts what it got out.
    let written = 0;
    let upstreamClosed = false;
    const piece = `data: ${JSON.stringify({
      id: "chatcmpl-flood",
      object: "chat.completion.chunk",
      created: 1,
      model: "mock-gpt",
      choices: [{ index: 0, delta: { content: "x".repeat(1000) }, finish_reason: null }],
    })}\n\n`;
    const server: Server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.on("close", () => (upstreamClosed = true));
        const pump = () => {
          while (!response.destroyed) {
            written += piece.length;
            if (!response.write(piece)) return void response.once("drain", pump);
          }
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { gateway } = await start({
        baseUrls: { openai: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` },
        gateway: { ttftTimeoutSeconds: 30, streamStallSeconds: 30 },
      });
      const { request: undiciRequest } = await import("undici");
      const controller = new AbortController();
      const answer = await undiciRequest(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${CLIENT_TOKEN}` },
        body: JSON.stringify({ model: "openai/mock-gpt", stream: true, messages: [{ role: "user", content: "flood me" }] }),
        signal: controller.signal,
        // The client reads one chunk and then nothing: its socket buffers fill, then the gateway's.
        highWaterMark: 1,
      });
      expect(answer.statusCode).toBe(200);
      const reader = answer.body[Symbol.asyncIterator]();
      await reader.next();
      // Let the pipe fill up; a gateway that ignores backpressure keeps pulling megabytes a second.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const settled = written;
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Kernel buffers on three sockets and the streams' high-water marks hold a few MB at most; no growth.
      expect(written - settled).toBeLessThan(256 * 1024);
      expect(written).toBeLessThan(16 * 1024 * 1024);
      controller.abort();
      await waitFor(() => upstreamClosed);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/** A loopback upstream that sends its SSE events one per turn and counts the connections it was opened on. */
async function countingUpstream(events: readonly string[]): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      let index = 0;
      // The answer is complete (its finish, usage and end frame) a turn before the body ends, as real ones are.
      const next = () => {
        if (index === events.length) return void response.end();
        response.write(events[index] as string);
        index += 1;
        setImmediate(next);
      };
      next();
    });
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const openAiEvent = (choices: unknown[], usage?: unknown) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "mock-gpt", choices, ...(usage ? { usage } : {}) })}\n\n`;
const OPENAI_ANSWER = [
  openAiEvent([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]),
  openAiEvent([{ index: 0, delta: { content: "hello" }, finish_reason: null }]),
  openAiEvent([{ index: 0, delta: {}, finish_reason: "stop" }]),
  openAiEvent([], { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }) + "data: [DONE]\n\n",
];
const anthropicEvent = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const ANTHROPIC_ANSWER = [
  anthropicEvent("message_start", {
    message: {
      id: "msg",
      type: "message",
      role: "assistant",
      model: "mock-claude",
      content: [],
      stop_reason: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  }) + anthropicEvent("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  anthropicEvent("content_block_delta", { index: 0, delta: { type: "text_delta", text: "hello" } }),
  anthropicEvent("content_block_stop", { index: 0 }) +
    anthropicEvent("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } }),
  anthropicEvent("message_stop", {}),
];

describe("upstream connections", () => {
  it("R-GW-6: same-wire streams reuse one upstream connection: a complete answer's last bytes are drained, not cut", async () => {
    const upstream = await countingUpstream(OPENAI_ANSWER);
    try {
      const { openai } = await start({ baseUrls: { openai: `${upstream.url}/v1` } });
      for (let index = 0; index < 20; index += 1) {
        const stream = await openai.chat.completions.create({ ...streamed, model: "openai/mock-gpt" });
        expect((await readChatStream(stream)).text).toBe("hello");
      }
      // One connection for all of them (two at most, should one race its predecessor's release).
      expect(upstream.connections()).toBeLessThanOrEqual(2);
    } finally {
      await upstream.close();
    }
  });

  it("R-ST-6: answers translated across wires, streamed or assembled, reuse their upstream connection too", async () => {
    const upstream = await countingUpstream(ANTHROPIC_ANSWER);
    try {
      const { openai } = await start({ baseUrls: { anthropic: upstream.url } });
      for (let index = 0; index < 10; index += 1) {
        const stream = await openai.chat.completions.create({ ...streamed, model: "anthropic/mock-claude" });
        expect((await readChatStream(stream)).text).toBe("hello");
        const answer = await openai.chat.completions.create({
          model: "anthropic/mock-claude",
          messages: [{ role: "user", content: "hi" }],
        });
        expect(answer.choices[0]?.message.content).toBe("hello");
      }
      expect(upstream.connections()).toBeLessThanOrEqual(2);
    } finally {
      await upstream.close();
    }
  });
});
