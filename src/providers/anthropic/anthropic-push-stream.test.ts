/**
 * The Anthropic provider's two ways of reading one stream (SPEC R-ST-2, R-ST-6): pulled (`stream`, the commit
 * point) and pushed (`pushStream`, assembled answers). Both must hand on the same events and fail the same way,
 * and a complete answer must leave its connection to the pool instead of costing a TCP connection per request.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure, type MalformedChunk } from "../../ports/provider.js";
import { simpleRequest, richRequest } from "../shared/__fixtures__/canonical-requests.js";
import { readFixture, serverPerTest } from "../shared/__fixtures__/loopback-server.js";
import { expectSameReadings, streamReadings } from "../shared/__fixtures__/stream-readings.js";
import { HttpProvider } from "../http-provider.js";
import { anthropicQuirks } from "./quirks.js";

const SSE = "text/event-stream";
const credential = { type: "api_key" as const, provider: "anthropic", key: "sk-ant-test-0123456789abcdef" };
const fixture = (name: string) => readFixture(import.meta.url, name);
const serve = serverPerTest();

const provider = (baseUrl: string) => new HttpProvider({ id: "anthropic", api: "anthropic-messages", baseUrl }, anthropicQuirks);

function context(onMalformedChunk?: (chunk: MalformedChunk) => void) {
  return {
    model: "claude-sonnet-4-5",
    credential,
    signal: new AbortController().signal,
    ...(onMalformedChunk ? { onMalformedChunk } : {}),
  };
}

const { pulled, pushed } = streamReadings(provider, (onMalformedChunk) => context(onMalformedChunk));

describe("the Anthropic provider: pulled and pushed reads of one stream", () => {
  it.each([
    ["stream-text.chunks.txt", 5],
    ["stream-text.chunks.txt", 100_000],
    ["stream-tool-use.chunks.txt", 17],
    ["stream-no-message-stop.chunks.txt", 3],
    ["stream-malformed.chunks.txt", 11],
    ["stream-overloaded-error.chunks.txt", 17],
    ["stream-truncated.chunks.txt", 7],
  ])("R-ST-2: %s in writes of %i bytes gives the same events, skipped chunks and failure either way", async (name, pieceBytes) => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture(name), pieceBytes });
    const request = name.includes("tool") ? richRequest : simpleRequest;
    expectSameReadings(await pulled(upstream.url, request), await pushed(upstream.url, request));
  });

  it("R-ST-2: an in-band error in the same read as content comes after that content, both ways", async () => {
    // One write: the events before the error arrive in the read that carries it.
    const upstream = await serve({
      kind: "stream",
      contentType: SSE,
      text: fixture("stream-overloaded-error.chunks.txt"),
      pieceBytes: 100_000,
    });
    for (const reading of [await pulled(upstream.url), await pushed(upstream.url)]) {
      expect(reading.events.map((event) => event.type)).toEqual(["message-start", "text-delta"]);
      expect(reading.error).toBeInstanceOf(UpstreamFailure);
      expect((reading.error as UpstreamFailure).failure).toMatchObject({ status: 529, errorType: "overloaded_error" });
    }
  });

  it("a push that returns false gets no later event and the call resolves", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-text.chunks.txt"), pieceBytes: 100_000 });
    const seen: CanonicalStreamEvent[] = [];
    await provider(upstream.url).pushStream(simpleRequest, context(), (event) => {
      seen.push(event);
      return event.type !== "text-delta";
    });
    expect(seen.map((event) => event.type)).toEqual(["message-start", "text-delta"]);
  });
});

describe("the Anthropic provider: a complete answer keeps its connection (R-ST-6)", () => {
  let servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(
      servers.map((server) => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      }),
    );
    servers = [];
  });

  /**
   * An upstream whose body ends a moment after `message_stop`, as real servers often send it (or never, with
   * `holdOpen`); counts connections and those closed.
   */
  async function countingUpstream(holdOpen = false): Promise<{ url: string; connections: () => number; closed: () => number }> {
    const text = fixture("stream-text.chunks.txt");
    const sockets = new Set<Socket>();
    const closed = new Set<Socket>();
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": SSE });
        // Held open: the answer so far, up to its first text delta, and nothing more.
        if (holdOpen) response.write(text.slice(0, text.indexOf("\n\n", text.indexOf("text_delta")) + 2));
        else {
          response.write(text);
          setTimeout(() => response.end(), 5);
        }
      });
    });
    server.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.on("close", () => closed.add(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      connections: () => sockets.size,
      closed: () => closed.size,
    };
  }

  /** Long enough for the last body's end to arrive: a call started before it would need a connection of its own. */
  const bodyEnded = () => new Promise((resolve) => setTimeout(resolve, 25));

  it("pushed: ten answers, not ten connections", async () => {
    const upstream = await countingUpstream();
    for (let call = 0; call < 10; call += 1) {
      const reading = await pushed(upstream.url);
      expect(reading.events.at(-1)?.type).toBe("finish");
      await bodyEnded();
    }
    expect(upstream.connections()).toBeLessThanOrEqual(2);
  });

  it("pulled: a consumer that stops at the finish leaves the connection to the pool", async () => {
    const upstream = await countingUpstream();
    for (let call = 0; call < 10; call += 1) {
      for await (const event of provider(upstream.url).stream(simpleRequest, context())) {
        if (event.type === "finish") break;
      }
      await bodyEnded();
    }
    expect(upstream.connections()).toBeLessThanOrEqual(2);
  });

  it("pulled: a consumer that stops before the finish closes the connection at once", async () => {
    const upstream = await countingUpstream(true);
    for await (const event of provider(upstream.url).stream(simpleRequest, context())) {
      if (event.type === "text-delta") break;
    }
    // Every connection the call opened is closed well before the drain's grace (2 s) would end it.
    await expect.poll(() => upstream.closed() > 0 && upstream.closed() === upstream.connections(), { timeout: 1_000 }).toBe(true);
  });
});

describe("the Anthropic provider: stream read ahead (backpressure and early returns)", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** An upstream that writes text deltas as fast as the socket takes them, until told to stop; reports how far it got. */
  async function floodingUpstream(): Promise<{ url: string; written: () => number; blocked: () => boolean; closed: Promise<void> }> {
    let written = 0;
    let blocked = false;
    let markClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const delta = `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${"x".repeat(512)}"}}\n\n`;
    server = createServer((request, response) => {
      request.resume();
      response.on("close", markClosed);
      request.on("end", () => {
        response.writeHead(200, { "content-type": SSE });
        response.write(
          'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"claude","usage":{"input_tokens":1}}}\n\n',
        );
        const pump = () => {
          while (!response.destroyed && written < 20_000) {
            written += 1;
            if (!response.write(delta)) {
              blocked = true;
              response.once("drain", pump);
              return;
            }
          }
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, written: () => written, blocked: () => blocked, closed };
  }

  it("a consumer that stops pulling pauses the upstream instead of buffering its whole answer", async () => {
    const upstream = await floodingUpstream();
    const events = provider(upstream.url).stream(simpleRequest, context());
    expect((await events.next()).value).toMatchObject({ type: "message-start" });
    expect((await events.next()).value).toMatchObject({ type: "text-delta" });
    // Nobody pulls now: the upstream soon finds its socket full and stops far short of its 20 000 events.
    await expect.poll(() => upstream.blocked(), { timeout: 2_000 }).toBe(true);
    const writtenWhenBlocked = upstream.written();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.written()).toBe(writtenWhenBlocked);
    expect(writtenWhenBlocked).toBeLessThan(20_000);
    // Pulling again lets it flow; returning releases the connection.
    for (let index = 0; index < 200; index += 1) await events.next();
    await events.return?.();
    await upstream.closed;
  });

  it("returning while a pull waits ends that pull and closes the connection at once", async () => {
    const text = fixture("stream-text.chunks.txt");
    let markClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    server = createServer((request, response) => {
      request.resume();
      response.on("close", markClosed);
      // Only the start of the answer, then silence.
      request.on("end", () => response.writeHead(200, { "content-type": SSE }).write(text.slice(0, text.indexOf("\n\n") + 2)));
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const events = provider(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).stream(simpleRequest, context());
    expect((await events.next()).value).toMatchObject({ type: "message-start" });
    const waiting = events.next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await events.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
    await closed;
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });

  it("returning before the first pull never opens the call", async () => {
    let requests = 0;
    server = createServer((request, response) => {
      requests += 1;
      response.end();
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const events = provider(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).stream(simpleRequest, context());
    await events.return?.();
    expect(await events.next()).toEqual({ done: true, value: undefined });
    expect(requests).toBe(0);
  });
});
