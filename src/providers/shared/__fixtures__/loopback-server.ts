/**
 * A real HTTP server on 127.0.0.1 (port 0) that replays recorded wire fixtures to provider tests.
 * Providers are tested through actual sockets — never by mocking fetch — so timeouts, cuts and aborts
 * behave as they do in production.
 */
import { readFileSync } from "node:fs";
import { afterEach } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: unknown;
  /** Resolves when the server sees the client's connection for this request close. */
  closed: Promise<void>;
}

export type LoopbackReply =
  | { kind: "json"; status?: number; headers?: Record<string, string>; body: unknown }
  | { kind: "text"; status: number; headers?: Record<string, string>; text: string }
  | {
      kind: "stream";
      contentType: string;
      text: string;
      status?: number;
      headers?: Record<string, string>;
      /** Bytes per write; small odd sizes split events and multi-byte characters across chunks. */
      pieceBytes?: number;
      /** Destroy the socket after this many bytes: a cut connection. */
      cutAfterBytes?: number;
      /** Keep the response open after the text (a server that never ends the stream). */
      holdOpen?: boolean;
    }
  /** Never answer: headers never come. */
  | { kind: "hang" }
  /** Destroy the connection before any response byte. */
  | { kind: "reset" };

export interface LoopbackServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startLoopbackServer(
  reply: (request: RecordedRequest) => LoopbackReply | Promise<LoopbackReply>,
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const closed = new Promise<void>((resolve) => res.on("close", () => resolve()));
    const raw = await readAll(req);
    let body: unknown;
    try {
      body = raw === "" ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, closed };
    requests.push(recorded);
    await send(res, await reply(recorded));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readAll(req: IncomingMessage): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of req) text += decoder.decode(chunk as Uint8Array, { stream: true });
  return text + decoder.decode();
}

async function send(res: ServerResponse, reply: LoopbackReply): Promise<void> {
  switch (reply.kind) {
    case "hang":
      return;
    case "reset":
      res.socket?.destroy();
      return;
    case "json":
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
      return;
    case "text":
      res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
      res.end(reply.text);
      return;
    case "stream":
      await sendStream(res, reply);
  }
}

async function sendStream(res: ServerResponse, reply: Extract<LoopbackReply, { kind: "stream" }>): Promise<void> {
  res.socket?.setNoDelay(true);
  res.writeHead(reply.status ?? 200, { "content-type": reply.contentType, "cache-control": "no-cache", ...reply.headers });
  const bytes = new TextEncoder().encode(reply.text);
  const limit = reply.cutAfterBytes ?? bytes.byteLength;
  const pieceBytes = reply.pieceBytes ?? 17;
  for (let offset = 0; offset < limit && !res.destroyed; offset += pieceBytes) {
    res.write(bytes.subarray(offset, Math.min(offset + pieceBytes, limit)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (reply.cutAfterBytes !== undefined) {
    res.socket?.destroy();
    return;
  }
  if (!reply.holdOpen) res.end();
}

/** Reads a fixture file that sits in the `__fixtures__` folder beside the calling test. */
export function readFixture(testFileUrl: string, name: string): string {
  return readFileSync(new URL(`./__fixtures__/${name}`, testFileUrl), "utf8");
}

export function readJsonFixture(testFileUrl: string, name: string): unknown {
  return JSON.parse(readFixture(testFileUrl, name)) as unknown;
}

/**
 * For a test file whose tests each answer with one canned reply: returns `serve(reply)`, which starts a
 * loopback server for the current test, and registers the `afterEach` that closes it.
 */
export function serverPerTest(): (reply: LoopbackReply) => Promise<LoopbackServer> {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (reply) => {
    server = await startLoopbackServer(() => reply);
    return server;
  };
}
