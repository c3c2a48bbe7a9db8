/**
 * The lane's body parser: fastify's limits and errors, without the join of a large body.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { BodyBytes } from "../../wire/shared/body-bytes.js";
import { JOIN_BELOW_BYTES, receiveBodyBytes } from "./receive-body.js";

let apps: FastifyInstance[] = [];

afterEach(async () => {
  await Promise.all(apps.map((app) => app.close()));
  apps = [];
});

/** A route that answers what it received: the chunk count, the length and a digest of the bytes. */
async function echoApp(bodyLimit = 4 * 1024 * 1024): Promise<FastifyInstance> {
  const app = Fastify({ bodyLimit });
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", receiveBodyBytes);
  app.post("/echo", async (request) => {
    const body = request.body as BodyBytes;
    return { isBodyBytes: body instanceof BodyBytes, chunks: body.chunks.length, length: body.length, text: body.utf8() };
  });
  apps.push(app);
  return app;
}

describe("receiveBodyBytes (the lane's JSON body, as it arrived)", () => {
  it("R-GW-6: a large body over a real socket stays its chunks, byte-identical when read", async () => {
    const app = await echoApp();
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const text = JSON.stringify({ model: "m", messages: [{ role: "user", content: "déjà vu — 😀 ".repeat(70_000) }] });
    const response = await fetch(`${url}/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: text });
    const answer = (await response.json()) as { isBodyBytes: boolean; chunks: number; length: number; text: string };
    expect(answer.isBodyBytes).toBe(true);
    expect(answer.length).toBe(Buffer.byteLength(text));
    expect(answer.chunks).toBeGreaterThan(1);
    expect(answer.text === text).toBe(true);
  });

  it("R-GW-6: a small body is joined into one Buffer of its own", async () => {
    const app = await echoApp();
    const text = JSON.stringify({ model: "m", messages: [] });
    const response = await app.inject({ method: "POST", url: "/echo", headers: { "content-type": "application/json" }, payload: text });
    expect(response.json()).toEqual({ isBodyBytes: true, chunks: 1, length: text.length, text });
    expect(text.length).toBeLessThan(JOIN_BELOW_BYTES);
  });

  it("R-GW-4: a declared length over the body limit is a 413 before any byte is read", async () => {
    const app = await echoApp(1_000);
    const response = await app.inject({
      method: "POST",
      url: "/echo",
      headers: { "content-type": "application/json" },
      payload: "x".repeat(2_000),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe("FST_ERR_CTP_BODY_TOO_LARGE");
  });

  it("R-GW-4: a body without a declared length is cut off with a 413 once it passes the limit", async () => {
    const app = await echoApp(100_000);
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const parts = [Buffer.alloc(60_000, 0x20), Buffer.alloc(60_000, 0x20)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    const response = await fetch(`${url}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("R-GW-4: a body shorter than its declared length is a 400", async () => {
    const app = await echoApp();
    const response = await app.inject({
      method: "POST",
      url: "/echo",
      headers: { "content-type": "application/json", "content-length": "50" },
      payload: '{"model":"m"}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("FST_ERR_CTP_INVALID_CONTENT_LENGTH");
  });
});
