import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../ports/provider.js";
import { DRAIN_GRACE_MS, pumpPassThrough, type PassThroughTarget } from "./pass-through-call.js";

/** A loopback upstream whose handler writes the answer; real HTTP, real undici. */
async function upstream(handler: (response: ServerResponse) => void): Promise<{ server: Server; url: string; closed: Promise<void> }> {
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const server = createServer((request, response) => {
    request.resume();
    response.on("close", markClosed);
    handler(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`, closed };
}

function target(url: string): PassThroughTarget {
  return {
    provider: "openai",
    url,
    headers: { "content-type": "application/json", authorization: "Bearer sk-test-pump" },
    timeoutMs: 5_000,
    describeError: (bodyText) => ({ message: bodyText }),
    secrets: ["sk-test-pump"],
  };
}

const event = (n: number) => `data: {"n":${n}}\n\n`;
let servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

describe("pumpPassThrough (R-ST-6: the reads of an assembled answer, pushed)", () => {
  it("R-ST-6: a complete answer leaves its connection to the pool: twenty calls, not twenty connections", async () => {
    let connections = 0;
    const { server, url } = await upstream((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(event(1));
      // The body's end comes a turn after the answer's last event, as real servers often send it.
      setImmediate(() => response.end());
    });
    server.on("connection", () => (connections += 1));
    servers.push(server);
    for (let call = 0; call < 20; call += 1) {
      await pumpPassThrough(
        target(url),
        Buffer.from("{}"),
        { signal: new AbortController().signal },
        () => {},
        () => false,
      );
    }
    // The next call starts while the last body still drains, so the pool may open a second; never one per call.
    expect(connections).toBeLessThanOrEqual(2);
  });

  it("R-ST-6: stopping at the answer's end releases an upstream that keeps its body open, with no stray error", async () => {
    const { server, url, closed } = await upstream((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(event(1));
      setTimeout(() => response.write(event(2)), 5);
      // Never ends: the reader decides the answer is complete.
    });
    servers.push(server);
    const reads: string[] = [];
    const started = Date.now();
    await pumpPassThrough(
      target(url),
      Buffer.from("{}"),
      { signal: new AbortController().signal },
      () => {},
      (chunk) => {
        reads.push(chunk.toString());
        return !reads.join("").includes('"n":2');
      },
    );
    // The answer is there at once; the body that never ends is given up after the grace.
    expect(Date.now() - started).toBeLessThan(DRAIN_GRACE_MS);
    expect(reads.join("")).toBe(event(1) + event(2));
    await closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(DRAIN_GRACE_MS - 50);
  });

  it("R-ST-6: a body cut mid-answer rejects with a classified network failure", async () => {
    const { server, url } = await upstream((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(event(1));
      setTimeout(() => response.socket?.destroy(), 5);
    });
    servers.push(server);
    const error = await pumpPassThrough(
      target(url),
      Buffer.from("{}"),
      { signal: new AbortController().signal },
      () => {},
      () => true,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
  });

  it("R-ST-6: what the reader throws (an in-band failure) fails the call and stops the body", async () => {
    const { server, url, closed } = await upstream((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(event(1));
    });
    servers.push(server);
    const inBand = new Error("in-band error event");
    const error = await pumpPassThrough(
      target(url),
      Buffer.from("{}"),
      { signal: new AbortController().signal },
      () => {},
      () => {
        throw inBand;
      },
    ).catch((caught: unknown) => caught);
    expect(error).toBe(inBand);
    await closed;
  });

  it("R-ST-6: a non-2xx answer is the provider's failure before any read, and the key never shows in it", async () => {
    const { server, url } = await upstream((response) => {
      response
        .writeHead(429, { "content-type": "application/json", "retry-after": "3" })
        .end('{"error":{"message":"slow down, sk-test-pump"}}');
    });
    servers.push(server);
    let reads = 0;
    let status: number | undefined;
    const error = await pumpPassThrough(
      target(url),
      Buffer.from("{}"),
      { signal: new AbortController().signal, onUpstreamHeaders: (code) => (status = code) },
      () => {},
      () => {
        reads += 1;
        return true;
      },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure.status).toBe(429);
    expect(String((error as UpstreamFailure).message)).not.toContain("sk-test-pump");
    expect(reads).toBe(0);
    expect(status).toBe(429);
  });
});
