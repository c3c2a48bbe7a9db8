/**
 * The benchmark's upstream, in its own process: canned OpenAI and Anthropic answers (JSON and a 20-chunk
 * stream) from precomputed buffers, so its own cost is tiny and identical for every target. Prints its URL
 * as the first line of stdout and exits when stdin closes.
 */
import { createServer } from "node:http";
import { serveChild } from "./serve-child.js";

/** Events per streamed answer (BENCH_CHUNKS, for measuring the cost of one more chunk; 20 in every figure). */
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20);
const openaiJson = Buffer.from(
  JSON.stringify({
    id: "chatcmpl-bench",
    object: "chat.completion",
    created: 1700000000,
    model: "bench-gpt",
    choices: [{ index: 0, message: { role: "assistant", content: "Hello from the bench upstream." }, finish_reason: "stop" }],
    usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
  }),
);
const openaiChunk = (delta: Record<string, unknown>, finish: string | null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1700000000, model: "bench-gpt", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const openaiEvents: Buffer[] = [
  openaiChunk({ role: "assistant", content: "" }, null),
  ...Array.from({ length: CHUNKS - 2 }, (_, index) => openaiChunk({ content: `tok${index} ` }, null)),
  openaiChunk({}, "stop"),
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1700000000, model: "bench-gpt", choices: [], usage: { prompt_tokens: 12, completion_tokens: 18, total_tokens: 30 } })}\n\ndata: [DONE]\n\n`,
].map((text) => Buffer.from(text));
const anthropicJson = Buffer.from(
  JSON.stringify({
    id: "msg_bench",
    type: "message",
    role: "assistant",
    model: "bench-claude",
    content: [{ type: "text", text: "Hello from the bench upstream." }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 7 },
  }),
);
const sse = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const anthropicEvents: Buffer[] = [
  sse("message_start", {
    message: {
      id: "msg_bench",
      type: "message",
      role: "assistant",
      model: "bench-claude",
      content: [],
      stop_reason: null,
      usage: { input_tokens: 12, output_tokens: 1 },
    },
  }) + sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  ...Array.from({ length: CHUNKS - 2 }, (_, index) =>
    sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: `tok${index} ` } }),
  ),
  sse("content_block_stop", { index: 0 }) +
    sse("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 18 } }),
  sse("message_stop", {}),
].map((text) => Buffer.from(text));

/**
 * The slow streams of the many-streams scenario (a model named `bench-slow`): 40 events 50 ms apart, as a
 * model generating at 20 tokens a second sends them, so a thousand of them are in flight at once.
 */
const SLOW_EVENTS = 40;
const SLOW_GAP_MS = 50;
const slowOpenaiEvents: Buffer[] = [
  openaiChunk({ role: "assistant", content: "" }, null),
  ...Array.from({ length: SLOW_EVENTS - 2 }, (_, index) => openaiChunk({ content: `tok${index} ` }, null)),
  openaiChunk({}, "stop"),
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1700000000, model: "bench-slow", choices: [], usage: { prompt_tokens: 12, completion_tokens: 38, total_tokens: 50 } })}\n\ndata: [DONE]\n\n`,
].map((text) => Buffer.from(text));

function slowlyStreamed(response: import("node:http").ServerResponse): void {
  response.writeHead(200, { "content-type": "text/event-stream" });
  let index = 0;
  const next = () => {
    response.write(slowOpenaiEvents[index] as Buffer);
    index += 1;
    if (index === slowOpenaiEvents.length) response.end();
    else setTimeout(next, SLOW_GAP_MS);
  };
  next();
}

function streamed(response: import("node:http").ServerResponse, events: readonly Buffer[]): void {
  response.writeHead(200, { "content-type": "text/event-stream" });
  let index = 0;
  const next = () => {
    if (index === events.length) {
      response.end();
      return;
    }
    response.write(events[index] as Buffer);
    index += 1;
    // A write per event, each on its own turn: the proxy under test sees separate reads.
    setImmediate(next);
  };
  next();
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks);
    // `"stream":true` anywhere near the end; the upstream does not parse a 1 MB body either.
    const stream = body.includes('"stream":true');
    const anthropic = request.url?.includes("/messages") === true;
    if (stream && body.includes('"bench-slow"')) return slowlyStreamed(response);
    if (stream) return streamed(response, anthropic ? anthropicEvents : openaiEvents);
    response.writeHead(200, { "content-type": "application/json" }).end(anthropic ? anthropicJson : openaiJson);
  });
});
serveChild(server);
