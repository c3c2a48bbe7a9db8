/**
 * The gateway bounded by configuration (R-GW-8), client-side exhaustion keeping its status class (R-GW-9),
 * model names resolved one way (R-GW-3), the documented codes and content types, and the outcome headers.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { httpError, ScriptedProvider, success } from "../testing/scripted-provider.js";
import { anthropicBody, BASE_CONFIG, gatewayPerTest, openAIBody } from "./__fixtures__/test-gateway.js";
import { startGateway, type RunningGateway } from "./start-gateway.js";

const start = gatewayPerTest();

const running: RunningGateway[] = [];
const homes: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.close()));
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), "detour-bounds-"));
  homes.push(home);
  return home;
}

async function seededStore(): Promise<MemoryStateStore> {
  const store = new MemoryStateStore();
  await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-test-a-0123456789" } });
  await store.upsertProfile({ id: "openai:b", credential: { type: "api_key", provider: "openai", key: "sk-test-b-0123456789" } });
  await store.upsertProfile({ id: "anthropic:a", credential: { type: "api_key", provider: "anthropic", key: "sk-ant-a-0123456789" } });
  return store;
}

describe("R-GW-8: client input never grows state", () => {
  it("R-GW-8: an unknown x-detour-agent or ?agent= is a 400 naming the known agents, and creates no folder", async () => {
    const home = tempHome();
    const openai = new ScriptedProvider({ id: "openai" });
    openai.always({}, success("hi"));
    const gateway = await startGateway({
      config: { ...BASE_CONFIG, state: { backend: "sqlite" } },
      port: 0,
      env: { DETOUR_HOME: home, DETOUR_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") },
      providers: [openai],
    });
    running.push(gateway);
    for (let index = 0; index < 20; index += 1) {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-detour-agent": `random-${index}` },
        body: JSON.stringify(openAIBody("hi")),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { message: string; code: string; param: string } };
      expect(body.error.code).toBe("DETOUR_BAD_ROUTING");
      expect(body.error.param).toBe("x-detour-agent");
      expect(body.error.message).toContain("known agents: main, research");
    }
    for (const path of ["/status?agent=x", "/?agent=x", "/admin/profiles?agent=x", "/admin/sessions/s1?agent=x"]) {
      const response = await fetch(`${gateway.url}${path}`);
      expect(response.status, path).toBe(400);
    }
    const agentsDir = join(home, "agents");
    const folders = existsSync(agentsDir) ? readdirSync(agentsDir) : [];
    expect(folders.filter((name) => name !== "main" && name !== "research")).toEqual([]);
    expect(openai.calls).toHaveLength(0);

    const known = await fetch(`${gateway.url}/status?agent=research`);
    expect(known.status).toBe(200);
  });

  it("R-GW-8: metric labels for models and providers are the configured ones, anything else is other", async () => {
    const { app, openai } = await start();
    openai.always({}, success("ok"));
    for (const model of ["openai/made-up-1", "openai/made-up-2", "openai/gpt-a"]) {
      const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { model }) });
      expect(response.statusCode).toBe(200);
    }
    const metrics = (await app.inject({ method: "GET", url: "/metrics" })).body;
    expect(metrics).not.toContain("made-up");
    expect(metrics).toMatch(/detour_attempts_total\{provider="openai",model="other",reason="none"\} 2/);
    expect(metrics).toMatch(/detour_attempts_total\{provider="openai",model="gpt-a",reason="none"\} 1/);
  });

  it("R-GW-8: /status pages sessions (default 50) and says how many there are", async () => {
    const { app, store } = await start();
    for (let index = 0; index < 120; index += 1) {
      await store.patchSession(`s${String(index).padStart(3, "0")}`, {
        modelOverride: "gpt-a",
        providerOverride: "openai",
        updatedAt: index,
      });
    }
    const first = (await app.inject({ method: "GET", url: "/status" })).json();
    expect(first.sessions).toHaveLength(50);
    expect(first.sessionsTotal).toBe(120);
    expect(first.sessionsOffset).toBe(0);
    expect(first.sessionsLimit).toBe(50);
    expect(first.sessions[0].sessionKey).toBe("s119");
    const last = (await app.inject({ method: "GET", url: "/status?sessionsOffset=110&sessionsLimit=20" })).json();
    expect(last.sessions.map((session: { sessionKey: string }) => session.sessionKey)).toEqual(
      Array.from({ length: 10 }, (_, index) => `s${String(9 - index).padStart(3, "0")}`),
    );
    const bad = await app.inject({ method: "GET", url: "/status?sessionsLimit=lots" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.param).toBe("sessionsLimit");
    // The dashboard pages sessions through this same /status paging (its script asks for sessionsLimit).
    const page = await app.inject({ method: "GET", url: "/" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"&sessionsLimit="');
  });
});

describe("R-GW-9: client-side exhaustion keeps its status class", () => {
  it("R-GW-9: every upstream refusing the body with 413 is a 413 with the provider's message, and the OpenAI SDK does not retry", async () => {
    const openai = new ScriptedProvider({ id: "openai" });
    const anthropic = new ScriptedProvider({ id: "anthropic", api: "anthropic-messages" });
    const refusal = '{"error":{"message":"Request entity too large: 20 MB is over the limit","type":"invalid_request_error"}}';
    openai.always({}, httpError(413, refusal));
    anthropic.always({}, httpError(413, refusal));
    const gateway = await startGateway({
      config: BASE_CONFIG,
      port: 0,
      env: {},
      store: await seededStore(),
      providers: [openai, anthropic],
    });
    running.push(gateway);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: "unused", maxRetries: 2 });
    const failure = await client.chat.completions
      .create({ model: "detour", messages: [{ role: "user", content: "big" }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    const error = failure as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(413);
    expect(error.message).toContain("Request entity too large");
    expect((error.error as { type?: string }).type).toBe("invalid_request_error");
    // One request from the SDK: each candidate (and each openai key) was asked exactly once.
    expect(openai.calls.length + anthropic.calls.length).toBeLessThanOrEqual(3);
    expect(anthropic.calls).toHaveLength(1);
  });

  it("R-GW-9: every candidate rejecting the request format is a 400 in the Anthropic shape, never 503", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(400, '{"error":{"message":"messages[0].content: unsupported part","type":"invalid_request_error"}}'));
    anthropic.always({}, httpError(400, '{"type":"error","error":{"type":"invalid_request_error","message":"bad tool_use id"}}'));
    const response = await app.inject({
      method: "POST",
      url: "/v1/messages",
      payload: { model: "detour", max_tokens: 16, messages: [{ role: "user", content: "hi" }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().type).toBe("error");
    expect(response.json().error.type).toBe("invalid_request_error");
    expect(response.json().error.message).toMatch(/unsupported part|bad tool_use id/);
  });

  it("R-GW-9: a mix of a client-side failure and an overloaded upstream stays 503", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(400, '{"error":{"message":"bad request","type":"invalid_request_error"}}'));
    anthropic.always({}, httpError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'));
    const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    expect(response.statusCode).toBe(503);
  });
});

describe("R-GW-3: model names mean the same everywhere", () => {
  it("R-GW-3: a bare name is resolved through the config and the catalogue, an unknown provider is refused with the known ones", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, success("from openai"));
    anthropic.always({}, success("from anthropic"));
    const configured = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { model: "claude-b" }) });
    expect(configured.headers["x-detour-model"]).toBe("anthropic/claude-b");
    const catalogued = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      payload: openAIBody("hi", { model: "claude-sonnet-4" }),
    });
    expect(catalogued.statusCode).toBe(200);
    expect(catalogued.headers["x-detour-model"]).toBe("anthropic/claude-sonnet-4");

    const unknownProvider = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      payload: openAIBody("hi", { model: "nope/x" }),
    });
    expect(unknownProvider.statusCode).toBe(400);
    expect(unknownProvider.json().error.message).toContain('unknown provider "nope"; known providers: anthropic, google, ollama, openai');
    const unknownModel = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      payload: openAIBody("hi", { model: "no-such-model-anywhere" }),
    });
    expect(unknownModel.statusCode).toBe(400);
    expect(unknownModel.json().error.param).toBe("model");
    const badFallback = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-fallbacks": "nope/x" },
      payload: openAIBody("hi", { model: "openai/gpt-a" }),
    });
    expect(badFallback.statusCode).toBe(400);
    expect(badFallback.json().error.param).toBe("x-detour-fallbacks");
    expect(openai.calls.every((call) => call.model === "gpt-a")).toBe(true);
  });
});

describe("R-GW-3: bare names in the config", () => {
  it("R-GW-3: a bare fallback in the config falls back to the provider that offers it, never to the primary's provider", async () => {
    const config = {
      ...BASE_CONFIG,
      agents: {
        ...BASE_CONFIG.agents,
        defaults: { ...BASE_CONFIG.agents?.defaults, model: { primary: "openai/gpt-a", fallbacks: ["claude-b"] } },
      },
    };
    const { app, openai, anthropic } = await start({ config });
    openai.always({}, httpError(529, '{"error":{"message":"Overloaded","type":"overloaded_error"}}'));
    anthropic.always({}, success("from anthropic"));
    const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-detour-model"]).toBe("anthropic/claude-b");
    expect(openai.calls.every((call) => call.model === "gpt-a")).toBe(true);
  });

  it("R-GW-3: bare names in x-detour-fallbacks and in the Anthropic dialect's model field resolve the same way", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(529, '{"error":{"message":"Overloaded","type":"overloaded_error"}}'));
    anthropic.always({}, success("from anthropic"));
    const viaHeader = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-fallbacks": "claude-b" },
      payload: openAIBody("hi", { model: "gpt-a" }),
    });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.headers["x-detour-model"]).toBe("anthropic/claude-b");
    const messages = await app.inject({ method: "POST", url: "/v1/messages", payload: anthropicBody("hi", { model: "claude-b" }) });
    expect(messages.statusCode).toBe(200);
    expect(messages.headers["x-detour-model"]).toBe("anthropic/claude-b");
    const unknown = await app.inject({ method: "POST", url: "/v1/messages", payload: anthropicBody("hi", { model: "claude-c" }) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain('did you mean "anthropic/claude-b"?');
  });
});

describe("documented codes, content types and outcome headers", () => {
  it("R-GW-4: a text/plain body is a 415 DETOUR_UNSUPPORTED_MEDIA_TYPE; a schema violation is DETOUR_BAD_REQUEST", async () => {
    const { app, openai } = await start();
    const text = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "content-type": "text/plain" },
      payload: "hello",
    });
    expect(text.statusCode).toBe(415);
    expect(text.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(text.json().error.code).toBe("DETOUR_UNSUPPORTED_MEDIA_TYPE");
    const invalid = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: { model: "detour", messages: "nope" } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.code).toBe("DETOUR_BAD_REQUEST");
    const routing = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-source": "x" },
      payload: openAIBody("hi"),
    });
    expect(routing.json().error.code).toBe("DETOUR_BAD_ROUTING");
    expect(openai.calls).toHaveLength(0);
  });

  it("R-GW-3: x-detour-attempts counts key rotations and x-detour-profile names the profile that answered", async () => {
    const { app, openai } = await start();
    openai.script({ profileId: "openai:a" }, httpError(429, "rate limit exceeded"));
    openai.always({}, success("second key"));
    const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-detour-model"]).toBe("openai/gpt-a");
    expect(response.headers["x-detour-attempts"]).toBe("2");
    expect(response.headers["x-detour-profile"]).toBe("openai:b");
    expect(JSON.stringify(response.headers)).not.toContain("sk-test");
  });
});

describe("R-SO-4: session choices are checked before they are stored", () => {
  const chat = (text: string) => ({
    method: "POST" as const,
    url: "/v1/chat/completions",
    headers: { "x-detour-session": "s-check" },
    payload: openAIBody(text),
  });

  it("R-SO-4: /model refuses an unknown provider, an unknown bare name and a ghost profile pin, in the chat", async () => {
    const { app, store, openai } = await start();
    const unknown = await app.inject(chat("/model nope/x"));
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().choices[0].message.content).toContain('unknown provider "nope"; known providers: anthropic');
    const ghost = await app.inject(chat("/model openai/gpt-a@openai:ghost"));
    expect(ghost.json().choices[0].message.content).toContain('No profile "openai:ghost" exists for agent main (known: ');
    const wrongProvider = await app.inject(chat("/model openai/gpt-a@anthropic:a"));
    expect(wrongProvider.json().choices[0].message.content).toContain("belongs to anthropic, not to openai");
    expect(await store.getSession("s-check")).toBeUndefined();
    const typo = await app.inject(chat("/model gpt-4o-mni"));
    expect(typo.json().choices[0].message.content).toContain('did you mean "openai/gpt-4o-mini"?');
    const dated = await app.inject(chat("/model claude-b-20260101"));
    expect(dated.json().choices[0].message.content).toContain("Model set to anthropic/claude-b-20260101");
    const bare = await app.inject(chat("/model claude-b"));
    expect(bare.json().choices[0].message.content).toContain("Model set to anthropic/claude-b");
    expect(openai.calls).toHaveLength(0);
  });

  it("R-SO-4: PATCH /admin/sessions/:key refuses unknown providers and ghost pins with a 400", async () => {
    const { app, store } = await start();
    const unknown = await app.inject({ method: "PATCH", url: "/admin/sessions/s1", payload: { model: "nope/x" } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe("DETOUR_MODEL_SELECTION_INVALID");
    expect(unknown.json().error.message).toContain("known providers: anthropic, google, ollama, openai");
    const ghost = await app.inject({
      method: "PATCH",
      url: "/admin/sessions/s1",
      payload: { model: "openai/gpt-a", profile: "openai:ghost" },
    });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().error.code).toBe("DETOUR_UNKNOWN_PROFILE");
    expect(await store.getSession("s1")).toBeUndefined();
    const typo = await app.inject({ method: "PATCH", url: "/admin/sessions/s1", payload: { model: "gpt-4o-mni" } });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().error.message).toContain('did you mean "openai/gpt-4o-mini"?');
    const good = await app.inject({ method: "PATCH", url: "/admin/sessions/s1", payload: { model: "gpt-a", profile: "openai:b" } });
    expect(good.statusCode).toBe(200);
    expect(good.json().session.selectedModel).toBe("openai/gpt-a");
  });
});
