/**
 * R-HG-1 from outside: the official `openai` client talks to a real gateway on loopback; two upstream providers
 * (both OpenAI chat wire, so the same-wire lane carries the bytes) are one hand-made HTTP server that records
 * when each request arrived, when it wrote its first content and when its connection was closed. A silent
 * primary is raced and the fallback answers within seconds, with the default configuration; a slow primary
 * whose first token still comes wins its race, and the hedge's connection is closed within 100 ms.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { apiKeyProfiles } from "./fixtures/gateway-harness.js";

const CLIENT_TOKEN = "detour-hedging-e2e-client-token";

/** When an upstream sends its first content; `silent` = it never sends a byte (not even headers). */
type Behaviour = { firstContentMs: number } | "silent";

interface Seen {
  route: string;
  arrivedAt: number;
  contentAt?: number;
  closedAt?: number;
  stream: boolean;
}

class Upstream {
  readonly seen: Seen[] = [];
  readonly #server: Server;
  #url = "";
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(private readonly behaviours: Record<string, Behaviour>) {
    this.#server = createServer((request, response) => this.#serve(request, response));
  }

  get url(): string {
    return this.#url;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #serve(request: IncomingMessage, response: ServerResponse): void {
    const route = (request.url ?? "").split("/")[1] ?? "";
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const parsed = JSON.parse(body) as { model: string; stream?: boolean };
      const seen: Seen = { route, arrivedAt: Date.now(), stream: parsed.stream === true };
      this.seen.push(seen);
      response.on("close", () => (seen.closedAt ??= Date.now()));
      const behaviour = parsed.model === "gpt-warm" ? { firstContentMs: 0 } : this.behaviours[route];
      if (behaviour === undefined || behaviour === "silent") return;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        if (response.destroyed) return;
        seen.contentAt = Date.now();
        response.writeHead(200, { "content-type": "text/event-stream" });
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: `chatcmpl-${route}`, object: "chat.completion.chunk", created: 1, model: parsed.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        response.write(chunk({ role: "assistant", content: `${route} answers` }, null));
        response.write(chunk({}, "stop"));
        response.end("data: [DONE]\n\n");
      }, behaviour.firstContentMs);
      this.#timers.add(timer);
    });
  }
}

let upstream: Upstream | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await upstream?.close();
  gateway = undefined;
  upstream = undefined;
});

async function start(behaviours: Record<string, Behaviour>, hedging?: { afterMs?: number }) {
  upstream = new Upstream(behaviours);
  await upstream.start();
  gateway = await startGateway({
    config: {
      models: {
        providers: {
          openai: { api: "openai-chat", baseUrl: `${upstream.url}/primary/v1`, timeoutSeconds: 60 },
          backup: { api: "openai-chat", baseUrl: `${upstream.url}/backup/v1`, timeoutSeconds: 60 },
        },
      },
      auth: {
        profiles: apiKeyProfiles({ "openai:a": "HEDGE_OPENAI", "backup:a": "HEDGE_BACKUP" }),
      },
      // No timeout keys: the default first-token deadline and the learned hedge delay (R-HG-2) apply.
      agents: {
        defaults: {
          model: { primary: "openai/gpt-primary", fallbacks: ["backup/gpt-backup"] },
          ...(hedging ? { modelFailover: { hedging } } : {}),
        },
      },
      gateway: { auth: { tokens: [CLIENT_TOKEN] } },
      state: { backend: "memory" },
    },
    port: 0,
    env: { HEDGE_OPENAI: "sk-hedge-primary-0123456789", HEDGE_BACKUP: "sk-hedge-backup-0123456789" },
  });
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 60_000 });
  // One answered request first, straight to the backup: the process's first request loads and compiles code for
  // a good part of a second, which would be measured as the close's delay.
  await client.chat.completions.create({ model: "backup/gpt-warm", messages: [{ role: "user", content: "warm up" }] });
  await client.chat.completions
    .create({ model: "backup/gpt-warm", messages: [{ role: "user", content: "warm up" }], stream: true })
    .then(async (stream) => {
      for await (const _chunk of stream);
    });
  upstream.seen.length = 0;
  return { client, gateway, upstream };
}

async function metrics(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
  return response.text();
}

describe("hedged attempts through the gateway (R-HG-1)", () => {
  it("R-HG-1: a silent primary is raced with the default configuration and the fallback answers in seconds; the primary's connection is closed at once", async () => {
    const { client, gateway, upstream } = await start({ primary: "silent", backup: { firstContentMs: 50 } });
    const startedAt = Date.now();
    const { data, response } = await client.chat.completions
      .create({ model: "openai/gpt-primary", messages: [{ role: "user", content: "hello" }] })
      .withResponse();
    const elapsedMs = Date.now() - startedAt;
    expect(data.choices[0]?.message.content).toBe("backup answers");
    expect(data.model).toBe("backup/gpt-backup");
    // A cold model is raced after min(5 s, 15 s ÷ 3); the issue's target is an answer within 6 s.
    expect(elapsedMs).toBeGreaterThanOrEqual(5_000);
    expect(elapsedMs).toBeLessThan(6_000);
    expect(response.headers.get("x-detour-attempts")).toBe("2");
    expect(response.headers.get("x-detour-notice")).toBeTruthy();
    // The close is measured where it happens, on the upstream's side; give it the 100 ms it is allowed.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const [primary, backup] = upstream.seen;
    expect([primary?.route, backup?.route]).toEqual(["primary", "backup"]);
    // The loser's upstream connection is closed within 100 ms of the winner's first content.
    expect(primary?.closedAt).toBeDefined();
    expect(primary!.closedAt! - backup!.contentAt!).toBeLessThanOrEqual(100);
    const text = await metrics(gateway.url);
    expect(text).toMatch(/detour_hedges_total\{provider="openai",outcome="won"\} 1/);
    expect(text).toMatch(/detour_attempts_total\{provider="openai",model="gpt-primary",reason="hedge_lost"\} 1/);
    // R-TT-1: /status shows what the process learned of each model's first token, its deadline and hedge delay.
    const status = (await (await fetch(`${gateway.url}/status`, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } })).json()) as {
      firstToken: { provider: string; model: string; samples: number; deadlineMs: number; hedgeAfterMs: number }[];
    };
    expect(status.firstToken).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ provider: "backup", model: "gpt-backup", samples: 1, deadlineMs: 15_000, hedgeAfterMs: 5_000 }),
      ]),
    );
  }, 20_000);

  it("R-HG-1: a slow primary whose first token still comes wins its race; the streamed answer is the primary's and the hedge is aborted within 100 ms", async () => {
    const { client, gateway, upstream } = await start(
      { primary: { firstContentMs: 1_200 }, backup: { firstContentMs: 5_000 } },
      { afterMs: 300 },
    );
    const { data: stream, response } = await client.chat.completions
      .create({ model: "openai/gpt-primary", messages: [{ role: "user", content: "hello" }], stream: true })
      .withResponse();
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("primary answers");
    expect(response.headers.get("x-detour-model")).toBe("openai/gpt-primary");
    expect(response.headers.get("x-detour-notice")).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const primary = upstream.seen.find((seen) => seen.route === "primary")!;
    const backup = upstream.seen.find((seen) => seen.route === "backup")!;
    expect(backup.arrivedAt - primary.arrivedAt).toBeGreaterThanOrEqual(200);
    expect(backup.contentAt).toBeUndefined();
    expect(backup.closedAt).toBeDefined();
    expect(backup.closedAt! - primary.contentAt!).toBeLessThanOrEqual(100);
    const metricsText = await metrics(gateway.url);
    expect(metricsText).toMatch(/detour_hedges_total\{provider="openai",outcome="lost"\} 1/);
  }, 20_000);
});
