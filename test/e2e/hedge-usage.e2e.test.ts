/**
 * R-HG-1 cost honesty over real sockets: the official Anthropic and OpenAI clients, streamed and not, through a
 * gateway on loopback to two Anthropic Messages upstreams — the same-wire lane carries an Anthropic client's bytes,
 * the canonical lane translates for an OpenAI client. The primary sends `message_start` with its stated input
 * tokens and then stalls; it is raced, loses to the backup, and is charged what it stated, on every lane.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import type { DetourEvent } from "../../src/ports/events.js";
import { apiKeyProfiles } from "./fixtures/gateway-harness.js";

const CLIENT_TOKEN = "detour-hedge-usage-e2e-client-token";

function sse(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function messageStart(model: string, inputTokens: number): string {
  const message = { id: "msg_1", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null };
  return sse("message_start", { message: { ...message, usage: { input_tokens: inputTokens, output_tokens: 1 } } });
}

/** `/primary` states 1234 input tokens and then sends nothing more; `/backup` answers at once. */
function upstreamServer(): Server {
  return createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      if (request.url?.startsWith("/primary/")) {
        response.write(messageStart("claude-primary", 1234));
        return;
      }
      response.write(messageStart("claude-backup", 10));
      response.write(sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
      response.write(sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: "backup answers" } }));
      response.write(sse("content_block_stop", { index: 0 }));
      response.write(sse("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } }));
      response.end(sse("message_stop", {}));
    });
  });
}

let server: Server | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  gateway = undefined;
  server = undefined;
});

const ANTHROPIC_ASK = { model: "anthropic/claude-primary", max_tokens: 50, messages: [{ role: "user" as const, content: "hello" }] };
const OPENAI_ASK = { model: "anthropic/claude-primary", messages: [{ role: "user" as const, content: "hello" }] };

/** How each client asks, and the answer text it got. */
const ASKS: Record<string, (url: string) => Promise<string>> = {
  "Anthropic client, streamed (same wire)": async (url) => {
    const client = new Anthropic({ baseURL: url, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 20_000 });
    const stream = await client.messages.create({ ...ANTHROPIC_ASK, stream: true });
    let text = "";
    for await (const event of stream)
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
    return text;
  },
  "Anthropic client, not streamed (same wire, assembled)": async (url) => {
    const client = new Anthropic({ baseURL: url, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 20_000 });
    const answer = await client.messages.create(ANTHROPIC_ASK);
    return answer.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  },
  "OpenAI client, streamed (translated)": async (url) => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 20_000 });
    let text = "";
    for await (const chunk of await client.chat.completions.create({ ...OPENAI_ASK, stream: true }))
      text += chunk.choices[0]?.delta.content ?? "";
    return text;
  },
  "OpenAI client, not streamed (translated, assembled)": async (url) => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 20_000 });
    return (await client.chat.completions.create(OPENAI_ASK)).choices[0]?.message.content ?? "";
  },
};

it.each(Object.keys(ASKS))(
  "R-HG-1: %s: a raced loser whose upstream stated 1234 input tokens and then stalled is charged 1234",
  async (name) => {
    server = upstreamServer();
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    gateway = await startGateway({
      config: {
        models: {
          providers: {
            anthropic: { api: "anthropic-messages", baseUrl: `${url}/primary`, timeoutSeconds: 30 },
            backup: { api: "anthropic-messages", baseUrl: `${url}/backup`, timeoutSeconds: 30 },
          },
        },
        auth: {
          profiles: apiKeyProfiles({ "anthropic:a": "HEDGE_PRIMARY", "backup:a": "HEDGE_BACKUP" }),
        },
        agents: {
          defaults: {
            model: { primary: "anthropic/claude-primary", fallbacks: ["backup/claude-backup"] },
            modelFailover: { hedging: { afterMs: 300 } },
          },
        },
        gateway: { auth: { tokens: [CLIENT_TOKEN] } },
        state: { backend: "memory" },
      },
      port: 0,
      env: { HEDGE_PRIMARY: "sk-ant-hedge-primary-0123456789", HEDGE_BACKUP: "sk-ant-hedge-backup-0123456789" },
    });
    const finished: DetourEvent[] = [];
    gateway.detour.on("attempt_finished", (event) => finished.push(event));
    const text = await ASKS[name]!(gateway.url);
    expect(text).toBe("backup answers");
    await expect.poll(() => finished.find((event) => event.type === "attempt_finished" && event.outcome === "aborted")).toBeDefined();
    const aborted = finished.find((event) => event.type === "attempt_finished" && event.outcome === "aborted");
    expect(aborted).toMatchObject({ provider: "anthropic", profileId: "anthropic:a", inputTokens: 1234 });
    expect(aborted).not.toHaveProperty("usageEstimated");
  },
  20_000,
);
