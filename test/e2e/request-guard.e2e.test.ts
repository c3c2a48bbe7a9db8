/**
 * The Host and Origin guard over real HTTP (R-GW-13): a gateway listening on 127.0.0.1, a mock upstream whose
 * calls are counted, and requests sent with node:http (fetch may not set Host) carrying the headers a
 * DNS-rebinding page or a foreign web page would send.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_TOKEN, startHarness, type Harness } from "./fixtures/gateway-harness.js";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request to `base` with exactly the given headers (Host included). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        setHost: false,
        headers: {
          ...(payload !== undefined ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) } : {}),
          ...headers,
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

const chatBody = { model: "openai/mock-gpt", messages: [{ role: "user", content: "hi" }] };
const ALLOWED_HOST = "detour.example.test";
const ALLOWED_ORIGIN = "https://chat.example.test";

/** Every route class the guard must cover, with how to call it. */
const ROUTES: { name: string; method: string; path: string; body?: unknown }[] = [
  { name: "chat (OpenAI)", method: "POST", path: "/v1/chat/completions", body: chatBody },
  {
    name: "chat (Anthropic)",
    method: "POST",
    path: "/v1/messages",
    body: { model: "anthropic/mock-claude", max_tokens: 16, messages: [{ role: "user", content: "hi" }] },
  },
  { name: "admin list", method: "GET", path: "/admin/profiles" },
  { name: "admin reset", method: "POST", path: "/admin/profiles/openai:a/reset" },
  { name: "status", method: "GET", path: "/status" },
  { name: "metrics", method: "GET", path: "/metrics" },
  { name: "dashboard", method: "GET", path: "/" },
  { name: "dashboard data", method: "GET", path: "/dashboard/activity" },
  { name: "models", method: "GET", path: "/v1/models" },
];

/** The default installation: loopback bind, no tokens at all (admin routes open on loopback by design). */
describe("R-GW-13 request guard on a tokenless loopback gateway (real HTTP)", () => {
  let harness: Harness;
  let port: number;
  beforeAll(async () => {
    harness = await startHarness({ gateway: { auth: {}, allowedHosts: [ALLOWED_HOST], allowedOrigins: [ALLOWED_ORIGIN] } });
    port = harness.gateway.port;
    expect(harness.gateway.host).toBe("127.0.0.1");
  });
  afterAll(async () => harness?.close());

  for (const route of ROUTES) {
    it(`R-GW-13 a rebinding Host on ${route.name} (${route.method} ${route.path}) is refused with 403 and calls no upstream`, async () => {
      harness.mock.reset();
      const reply = await send(harness.gateway.url, route.method, route.path, { host: `evil.example:${port}` }, route.body);
      expect(reply.status).toBe(403);
      expect(reply.headers["content-type"]).toBe("application/json; charset=utf-8");
      const error = JSON.parse(reply.body).error;
      // Anthropic-dialect errors carry no code field; every other route's does.
      if (route.path !== "/v1/messages") expect(error.code).toBe("DETOUR_HOST_NOT_ALLOWED");
      expect(error.message).toContain("gateway.allowedHosts");
      expect(harness.mock.counts().total).toBe(0);
    });
  }

  it("R-GW-13 the full rebinding request (Host and Origin of the attacker's page) never reaches the upstream", async () => {
    harness.mock.reset();
    const reply = await send(
      harness.gateway.url,
      "POST",
      "/v1/chat/completions",
      { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
      chatBody,
    );
    expect(reply.status).toBe(403);
    expect(harness.mock.counts().total).toBe(0);
    // A reset through the admin API did not happen either: the profile list is untouched and readable locally.
    const profiles = await send(harness.gateway.url, "GET", "/admin/profiles", { host: `127.0.0.1:${port}` });
    expect(profiles.status).toBe(200);
  });

  it("R-GW-13 a loopback name on another port, a Host without port, a missing port, or a look-alike name is refused", async () => {
    harness.mock.reset();
    for (const host of [
      `localhost:${port + 1 === 65536 ? 1 : port + 1}`,
      "localhost",
      "127.0.0.1",
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `[::2]:${port}`,
    ]) {
      const reply = await send(harness.gateway.url, "POST", "/v1/chat/completions", { host }, chatBody);
      expect(reply.status, host).toBe(403);
    }
    expect(harness.mock.counts().total).toBe(0);
  });

  it("R-GW-13 localhost, 127.0.0.1, [::1] and *.localhost on the bound port are answered", async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `detour.localhost:${port}`, `LocalHost:${port}`]) {
      harness.mock.reset();
      const chat = await send(harness.gateway.url, "POST", "/v1/chat/completions", { host }, chatBody);
      expect(chat.status, `${host}: ${chat.body}`).toBe(200);
      expect(JSON.parse(chat.body).choices[0].message.content).toBeTypeOf("string");
      expect(harness.mock.counts().total, host).toBe(1);
      for (const path of ["/status", "/metrics", "/", "/admin/profiles"]) {
        expect((await send(harness.gateway.url, "GET", path, { host })).status, `${host} ${path}`).toBe(200);
      }
    }
  });

  it("R-GW-13 a host listed in gateway.allowedHosts is answered on any port (a reverse proxy's public name)", async () => {
    harness.mock.reset();
    for (const host of [ALLOWED_HOST, `${ALLOWED_HOST}:443`, `DETOUR.example.test:${port}`]) {
      const reply = await send(harness.gateway.url, "POST", "/v1/chat/completions", { host }, chatBody);
      expect(reply.status, host).toBe(200);
    }
    expect(harness.mock.counts().total).toBe(3);
    // Behind the proxy the dashboard calls its own origin: https://<public name>.
    const reset = await send(harness.gateway.url, "GET", "/admin/profiles", { host: ALLOWED_HOST, origin: `https://${ALLOWED_HOST}` });
    expect(reset.status).toBe(200);
  });

  it("R-GW-13 a foreign Origin is refused with 403 on a loopback Host, and no upstream is called", async () => {
    harness.mock.reset();
    for (const origin of [
      "http://evil.example",
      `http://evil.example:${port}`,
      "null",
      `http://localhost:${port + 1}`,
      "https://chat.example.test.evil.example",
    ]) {
      const reply = await send(harness.gateway.url, "POST", "/v1/chat/completions", { host: `127.0.0.1:${port}`, origin }, chatBody);
      expect(reply.status, origin).toBe(403);
      expect(reply.body).toContain("DETOUR_ORIGIN_NOT_ALLOWED");
      expect(reply.body).toContain("gateway.allowedOrigins");
    }
    const preflight = await send(harness.gateway.url, "OPTIONS", "/v1/chat/completions", {
      host: `127.0.0.1:${port}`,
      origin: "http://evil.example",
      "access-control-request-method": "POST",
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(harness.mock.counts().total).toBe(0);
  });

  it("R-GW-13 the gateway's own origins (the dashboard's) are answered", async () => {
    harness.mock.reset();
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const reply = await send(harness.gateway.url, "POST", "/admin/profiles/openai:a/reset", { host: `127.0.0.1:${port}`, origin });
      expect(reply.status, `${origin}: ${reply.body}`).toBe(200);
    }
  });

  it("R-GW-13 an origin in gateway.allowedOrigins gets its CORS preflight answered, then its request with Access-Control-Allow-Origin", async () => {
    harness.mock.reset();
    const preflight = await send(harness.gateway.url, "OPTIONS", "/v1/chat/completions", {
      host: `127.0.0.1:${port}`,
      origin: ALLOWED_ORIGIN,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type, x-detour-session, x-stainless-os",
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(ALLOWED_ORIGIN);
    expect(preflight.headers["access-control-allow-methods"]).toContain("POST");
    const allowedHeaders = String(preflight.headers["access-control-allow-headers"]).split(/,\s*/);
    expect(allowedHeaders).toEqual(
      expect.arrayContaining([
        "authorization",
        "content-type",
        "x-detour-session",
        "x-detour-agent",
        "x-detour-fallbacks",
        "x-stainless-os",
      ]),
    );
    expect(harness.mock.counts().total).toBe(0);

    const chat = await send(
      harness.gateway.url,
      "POST",
      "/v1/chat/completions",
      { host: `127.0.0.1:${port}`, origin: ALLOWED_ORIGIN },
      chatBody,
    );
    expect(chat.status).toBe(200);
    expect(chat.headers["access-control-allow-origin"]).toBe(ALLOWED_ORIGIN);
    expect(chat.headers.vary).toContain("Origin");
    expect(String(chat.headers["access-control-expose-headers"])).toContain("x-detour-model");

    // A streamed answer (written by the SSE writer) carries the CORS headers too.
    const stream = await send(
      harness.gateway.url,
      "POST",
      "/v1/chat/completions",
      { host: `127.0.0.1:${port}`, origin: ALLOWED_ORIGIN },
      { ...chatBody, stream: true },
    );
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toContain("text/event-stream");
    expect(stream.headers["access-control-allow-origin"]).toBe(ALLOWED_ORIGIN);
    expect(harness.mock.counts().total).toBe(2);
  });
});

describe("R-GW-13 request guard with tokens configured (real HTTP)", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => harness?.close());

  it("R-GW-13 a valid client token does not open the gateway to a rebinding Host or a foreign Origin", async () => {
    const port = harness.gateway.port;
    const auth = { authorization: `Bearer ${CLIENT_TOKEN}` };
    harness.mock.reset();
    const rebound = await send(harness.gateway.url, "POST", "/v1/chat/completions", { ...auth, host: `evil.example:${port}` }, chatBody);
    expect(rebound.status).toBe(403);
    const foreign = await send(
      harness.gateway.url,
      "POST",
      "/v1/chat/completions",
      { ...auth, host: `localhost:${port}`, origin: "https://evil.example" },
      chatBody,
    );
    expect(foreign.status).toBe(403);
    expect(harness.mock.counts().total).toBe(0);
    const own = await send(harness.gateway.url, "POST", "/v1/chat/completions", { ...auth, host: `localhost:${port}` }, chatBody);
    expect(own.status).toBe(200);
    expect(harness.mock.counts().total).toBe(1);
    // The guard runs before the token check: a rebinding request learns nothing about the tokens.
    const noToken = await send(harness.gateway.url, "GET", "/status", { host: `evil.example:${port}` });
    expect(noToken.status).toBe(403);
  });
});
