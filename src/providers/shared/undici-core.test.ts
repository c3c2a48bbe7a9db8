import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import * as undici from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, PARSED_URL_LIMIT, request } from "./undici-core.js";

const seen: Array<{ method?: string; url?: string; body: string }> = [];
const server = createServer((incoming: IncomingMessage, response) => {
  let body = "";
  incoming.on("data", (chunk: Buffer) => (body += chunk.toString()));
  incoming.on("end", () => {
    seen.push({ method: incoming.method, url: incoming.url, body });
    response.writeHead(201, { "content-type": "application/json", "x-echo": "yes" }).end('{"ok":true}');
  });
});
let origin = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("undici-core (Agent and request without undici's index)", () => {
  it("are undici's own classes, so dispatchers built from the package (MockAgent, Agent) still work", () => {
    expect(Agent).toBe(undici.Agent);
    expect(new Agent()).toBeInstanceOf(undici.Dispatcher);
  });

  it("sends the method, path with query, headers and body, and returns status, headers and body", async () => {
    const agent = new Agent();
    const response = await request(`${origin}/v1/chat?x=1`, {
      method: "POST",
      dispatcher: agent,
      headers: { "content-type": "application/json" },
      body: '{"hello":1}',
      headersTimeout: 5_000,
      bodyTimeout: 5_000,
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers["x-echo"]).toBe("yes");
    expect(await response.body.json()).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ method: "POST", url: "/v1/chat?x=1", body: '{"hello":1}' });
    await agent.close();
  });

  it("defaults like undici's request: GET without a body, PUT with one, the global dispatcher without one", async () => {
    await (await request(`${origin}/plain`, {})).body.dump();
    expect(seen.at(-1)).toMatchObject({ method: "GET", url: "/plain" });
    await (await request(new URL(`${origin}/put`), { body: "x" })).body.dump();
    expect(seen.at(-1)).toMatchObject({ method: "PUT", url: "/put", body: "x" });
  });

  it("an aborted signal rejects like undici's request", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(request(`${origin}/x`, { signal: controller.signal, dispatcher: new Agent() })).rejects.toThrow("stop");
  });

  it("parses each URL once and stays right past its memo's bound: every call reaches its own path", async () => {
    const agent = new Agent();
    const paths = Array.from({ length: PARSED_URL_LIMIT + 4 }, (_, index) => `/memo/${index}?q=${index}`);
    for (const path of [...paths, ...paths.slice(0, 3)]) {
      await (await request(`${origin}${path}`, { method: "POST", dispatcher: agent, body: "x" })).body.dump();
      expect(seen.at(-1)?.url).toBe(path);
    }
    await agent.close();
  });
});
