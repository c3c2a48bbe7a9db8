import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../ports/provider.js";
import { Agent } from "./undici-core.js";
import { openPassThrough, pumpPassThrough, readPassThroughBody, type PassThroughTarget, type UpstreamChunks } from "./pass-through-call.js";

interface Received {
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Which TCP connection carried it (1 = the first one the server accepted). */
  connection: number;
}

/** A loopback upstream that keeps each request's headers as sent and its body bytes; real HTTP, real undici. */
async function capturingUpstream(
  answer: "json" | "events",
): Promise<{ server: Server; url: string; received: Received[]; connections: () => number }> {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    const connection = (request.socket as { connectionNumber?: number }).connectionNumber as number;
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      received.push({ rawHeaders: request.rawHeaders, headers: request.headers, body: Buffer.concat(parts), connection });
      if (answer === "json") response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      else response.writeHead(200, { "content-type": "text/event-stream" }).end('data: {"n":1}\n\n');
    });
  });
  server.on("connection", (socket) => {
    connections += 1;
    (socket as { connectionNumber?: number }).connectionNumber = connections;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`,
    received,
    connections: () => connections,
  };
}

/**
 * One connection per origin: a request that left its connection unusable (no keep-alive, a body not fully
 * written) would show as a second connection. (The shared agent's pool may open a second one for a call that
 * starts before the last response's end was processed.)
 */
let dispatcher: InstanceType<typeof Agent>;

function target(url: string, headers: Record<string, string> = {}): PassThroughTarget {
  return {
    provider: "openai",
    url,
    dispatcher,
    headers: { "content-type": "application/json", authorization: "Bearer sk-test-body", ...headers },
    timeoutMs: 5_000,
    describeError: (bodyText) => ({ message: bodyText }),
    secrets: ["sk-test-body"],
  };
}

/** A large client body and the upstream body made of it: a small edited head and a view of the rest. */
function viewsOfLargeBody(): { chunks: UpstreamChunks; expected: Buffer } {
  const text = 'é, \\"quoted\\" and ü '.repeat(20_000);
  const client = Buffer.from(`{"model":"openai/x","messages":[{"role":"user","content":"${text}"}]}`);
  const modelEnd = client.indexOf(",");
  const head = Buffer.from('{"stream":true,"model":"x"');
  const rest = client.subarray(modelEnd);
  return { chunks: { chunks: [head, rest], byteLength: head.length + rest.length }, expected: Buffer.concat([head, rest]) };
}

const signal = () => new AbortController().signal;
let servers: Server[] = [];

beforeEach(() => {
  dispatcher = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
});

afterEach(async () => {
  await dispatcher.close();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

describe("an upstream body given as views (no second copy of a large body)", () => {
  it("R-GW-6: the upstream receives exactly the joined bytes, with their length as content-length and no chunked encoding", async () => {
    const upstream = await capturingUpstream("json");
    const { chunks, expected } = viewsOfLargeBody();
    const response = await openPassThrough(target(upstream.url), chunks, { signal: signal() });
    expect((await readPassThroughBody(target(upstream.url), response, signal())).toString()).toBe('{"ok":true}');
    const [request] = upstream.received;
    expect(request?.body.equals(expected)).toBe(true);
    expect(request?.headers["content-length"]).toBe(String(expected.length));
    expect(request?.headers["transfer-encoding"]).toBeUndefined();
    // Exactly one length header went out.
    expect(request?.rawHeaders.filter((name, index) => index % 2 === 0 && name.toLowerCase() === "content-length")).toHaveLength(1);
  });

  it("R-RA-1: the same body sent again (a retry, a rotated credential) carries the same bytes, over the one kept-alive connection", async () => {
    const upstream = await capturingUpstream("json");
    const { chunks, expected } = viewsOfLargeBody();
    for (let call = 0; call < 3; call += 1) {
      const response = await openPassThrough(target(upstream.url), chunks, { signal: signal() });
      await readPassThroughBody(target(upstream.url), response, signal());
    }
    expect(upstream.received).toHaveLength(3);
    for (const request of upstream.received) expect(request.body.equals(expected)).toBe(true);
    expect(upstream.received.map((request) => request.connection)).toEqual([1, 1, 1]);
    expect(upstream.connections()).toBe(1);
  });

  it("R-GW-6: a configured content-length, however spelled, gives way to the body's real length", async () => {
    const upstream = await capturingUpstream("json");
    const { chunks, expected } = viewsOfLargeBody();
    const response = await openPassThrough(target(upstream.url, { "Content-Length": "12" }), chunks, { signal: signal() });
    await readPassThroughBody(target(upstream.url), response, signal());
    expect(upstream.received[0]?.body.equals(expected)).toBe(true);
    expect(upstream.received[0]?.headers["content-length"]).toBe(String(expected.length));
  });

  it("R-ST-6: the streamed calls (pushed, and opened for the streaming lane's pump) send views as they send a Buffer", async () => {
    const upstream = await capturingUpstream("events");
    const { chunks, expected } = viewsOfLargeBody();
    const pushed: string[] = [];
    await pumpPassThrough(
      target(upstream.url),
      chunks,
      { signal: signal() },
      () => {},
      (read) => {
        pushed.push(read.toString());
        return true;
      },
    );
    const pulled: string[] = [];
    const opened = await openPassThrough(target(upstream.url), chunks, { signal: signal() });
    for await (const read of opened.body) pulled.push(String(read));
    expect(pushed.join("")).toBe('data: {"n":1}\n\n');
    expect(pulled.join("")).toBe('data: {"n":1}\n\n');
    expect(upstream.received.map((request) => request.body.equals(expected))).toEqual([true, true]);
    expect(upstream.received.map((request) => request.headers["transfer-encoding"])).toEqual([undefined, undefined]);
    expect(upstream.connections()).toBe(1);
  });

  it("R-EC-7: a caller abort while views are still being uploaded (the upstream reads nothing) ends the call at once", async () => {
    const server = createServer((request) => request.pause());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    // Far more than the socket buffers hold: the upload waits for a drain that never comes.
    const big = Buffer.alloc(32 * 1024 * 1024, 0x20);
    const chunks = {
      chunks: [Buffer.from("{}"), big.subarray(0, 16 * 1024 * 1024), big.subarray(16 * 1024 * 1024)],
      byteLength: 2 + big.length,
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException("The client closed the connection.", "AbortError")), 100);
    const started = Date.now();
    const error = await openPassThrough(target(url), chunks, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(2_000);
    server.closeAllConnections();
  });

  it("R-GW-9: an upstream that answers before reading the views (a 413) fails the call like any HTTP error", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(413, { "content-type": "application/json", connection: "close" }).end('{"error":{"message":"Request too large"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const big = Buffer.alloc(8 * 1024 * 1024, 0x20);
    const error = await openPassThrough(
      target(url),
      { chunks: [Buffer.from("{}"), big], byteLength: 2 + big.length },
      { signal: signal() },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as Error).message).toContain("413");
  });

  it("R-GW-6: a Buffer body goes out as it did: its length, one write", async () => {
    const upstream = await capturingUpstream("json");
    const body = Buffer.from('{"model":"x","messages":[]}');
    const response = await openPassThrough(target(upstream.url), body, { signal: signal() });
    await readPassThroughBody(target(upstream.url), response, signal());
    expect(upstream.received[0]?.body.equals(body)).toBe(true);
    expect(upstream.received[0]?.headers["content-length"]).toBe(String(body.length));
  });
});
