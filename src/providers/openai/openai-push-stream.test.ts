/**
 * The OpenAI provider's two ways of reading one stream (SPEC R-ST-2, R-ST-6): pulled (`stream`, the commit
 * point) and pushed (`pushStream`, assembled answers) hand on the same events and fail the same way, and a
 * complete answer leaves its connection to the pool.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure } from "../../ports/provider.js";
import { richRequest, simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import { readFixture, serverPerTest } from "../shared/__fixtures__/loopback-server.js";
import { OpenAiProvider } from "./openai-provider.js";

const SSE = "text/event-stream";
const credential = { type: "api_key" as const, provider: "openai", key: "sk-test-0123456789abcdefghij" };
const fixture = (name: string) => readFixture(import.meta.url, name);
const serve = serverPerTest();
const provider = (baseUrl: string) => new OpenAiProvider({ id: "openai", api: "openai-completions", baseUrl, createResponseId: () => "chatcmpl-fixed" });

interface Reading {
  events: CanonicalStreamEvent[];
  malformed: string[];
  error?: unknown;
}

const context = (reading: Reading) => ({ model: "gpt-4o-mini", credential, signal: new AbortController().signal, onMalformedChunk: (chunk: { problem: string }) => reading.malformed.push(chunk.problem) });

async function pulled(baseUrl: string, request = simpleRequest): Promise<Reading> {
  const reading: Reading = { events: [], malformed: [] };
  try {
    for await (const event of provider(baseUrl).stream(request, context(reading))) reading.events.push(event);
  } catch (error) {
    reading.error = error;
  }
  return reading;
}

async function pushed(baseUrl: string, request = simpleRequest): Promise<Reading> {
  const reading: Reading = { events: [], malformed: [] };
  try {
    await provider(baseUrl).pushStream(request, context(reading), (event) => {
      reading.events.push(event);
      return event.type !== "finish";
    });
  } catch (error) {
    reading.error = error;
  }
  return reading;
}

/** The failure without the response headers: two calls' `date` headers may differ by a second. */
function failureOf(error: unknown): unknown {
  if (!(error instanceof UpstreamFailure)) return error;
  const { headers: _headers, ...failure } = error.failure;
  return failure;
}

describe("OpenAiProvider: pulled and pushed reads of one stream", () => {
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
    const pull = await pulled(upstream.url, request);
    const push = await pushed(upstream.url, request);
    expect(push.events).toEqual(pull.events);
    expect(push.malformed).toEqual(pull.malformed);
    expect(failureOf(push.error)).toEqual(failureOf(pull.error));
    expect(pull.events.length).toBeGreaterThan(0);
  });
});

describe("OpenAiProvider: a complete answer keeps its connection (R-ST-6)", () => {
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
