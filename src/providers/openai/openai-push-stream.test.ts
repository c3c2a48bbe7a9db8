/**
 * The OpenAI provider's two ways of reading one stream (SPEC R-ST-2, R-ST-6): pulled (`stream`, the commit
 * point) and pushed (`pushStream`, assembled answers) hand on the same events and fail the same way, and a
 * complete answer leaves its connection to the pool.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { richRequest, simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import { readFixture, serverPerTest } from "../shared/__fixtures__/loopback-server.js";
import { expectSameReadings, streamReadings } from "../shared/__fixtures__/stream-readings.js";
import { HttpProvider } from "../http-provider.js";
import { openAiQuirks } from "./quirks.js";

const SSE = "text/event-stream";
const credential = { type: "api_key" as const, provider: "openai", key: "sk-test-0123456789abcdefghij" };
const fixture = (name: string) => readFixture(import.meta.url, name);
const serve = serverPerTest();
const provider = (baseUrl: string) =>
  new HttpProvider({ id: "openai", api: "openai-chat", baseUrl, createResponseId: () => "chatcmpl-fixed" }, openAiQuirks);

const { pulled, pushed } = streamReadings(provider, (onMalformedChunk) => ({
  model: "gpt-4o-mini",
  credential,
  signal: new AbortController().signal,
  onMalformedChunk,
}));

describe("the OpenAI chat provider: pulled and pushed reads of one stream", () => {
  it.each([
    ["stream-text.chunks.txt", 7],
    ["stream-text.chunks.txt", 100_000],
    ["stream-tool-calls.chunks.txt", 17],
    ["stream-finish-then-close.chunks.txt", 5],
    ["stream-malformed.chunks.txt", 11],
    ["openrouter-stream-error.chunks.txt", 100_000],
    ["stream-truncated.chunks.txt", 9],
  ])("R-ST-2: %s in writes of %i bytes gives the same events, skipped chunks and failure either way", async (name, pieceBytes) => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture(name), pieceBytes });
    const request = name.includes("tool") ? richRequest : simpleRequest;
    expectSameReadings(await pulled(upstream.url, request), await pushed(upstream.url, request));
  });
});

describe("the OpenAI chat provider: a complete answer keeps its connection (R-ST-6)", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("pushed and pulled: ten answers, not ten connections", async () => {
    const text = fixture("stream-text.chunks.txt");
    let connections = 0;
    server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": SSE });
        response.write(text);
        // The body's end a moment after the answer's last event, as real servers often send it.
        setTimeout(() => response.end(), 5);
      });
    });
    server.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (let call = 0; call < 10; call += 1) {
      const reading = call % 2 === 0 ? await pushed(url) : await pulled(url);
      expect(reading.events.at(-1)?.type).toBe("finish");
      // Long enough for the last body's end to arrive: a call started before it would need a connection of its own.
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(connections).toBeLessThanOrEqual(2);
  });
});
