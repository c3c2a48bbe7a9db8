import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import {
  DEFAULT_OLLAMA_URL,
  NoCredentialsError,
  discoverCredentials,
  discoverEnvProfiles,
  ollamaBaseUrl,
  probeOllama,
  type FetchLike,
} from "./discover-credentials.js";

const emptyConfig = parseConfig({}).config;
const unreachable: FetchLike = async () => {
  throw new TypeError("fetch failed");
};

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("discoverCredentials", () => {
  it("R-CF-5: each provider variable becomes a `<provider>:env` profile (GEMINI before GOOGLE)", () => {
    const env = {
      OPENAI_API_KEY: "sk-a",
      ANTHROPIC_API_KEY: "sk-b",
      GEMINI_API_KEY: "g-1",
      GOOGLE_API_KEY: "g-2",
      OPENROUTER_API_KEY: " ",
    };
    expect(discoverEnvProfiles(env)).toEqual([
      { profileId: "openai:env", provider: "openai", variable: "OPENAI_API_KEY" },
      { profileId: "anthropic:env", provider: "anthropic", variable: "ANTHROPIC_API_KEY" },
      { profileId: "google:env", provider: "google", variable: "GEMINI_API_KEY" },
    ]);
    expect(discoverEnvProfiles({ GOOGLE_API_KEY: "g" })).toEqual([
      { profileId: "google:env", provider: "google", variable: "GOOGLE_API_KEY" },
    ]);
  });

  it.each([
    [undefined, DEFAULT_OLLAMA_URL],
    ["127.0.0.1:5000", "http://127.0.0.1:5000"],
    ["0.0.0.0", "http://127.0.0.1:11434"],
    ["http://localhost:8080/", "http://localhost:8080"],
    ["https://ollama.internal", "https://ollama.internal:11434"],
    ["http://10.0.0.2:80", "http://10.0.0.2"],
    ["[::1]:7000", "http://[::1]:7000"],
    ["ftp://x", undefined],
  ])("R-CF-5: OLLAMA_HOST %j is reached at %j", (value, expected) => {
    expect(ollamaBaseUrl(value === undefined ? {} : { OLLAMA_HOST: value })).toBe(expected);
  });

  it("R-CF-5: stays out of the way when profiles are configured or stored", async () => {
    const store = new MemoryStateStore();
    const configured = parseConfig({ auth: { profiles: { "openai:a": { provider: "openai", mode: "api_key" } } } }).config;
    await expect(discoverCredentials({ config: configured, store, env: {}, fetch: unreachable })).resolves.toEqual({
      kind: "configured",
    });
    await store.upsertProfile({ id: "openai:x", credential: { type: "api_key", provider: "openai", key: "sk-x" } });
    await expect(discoverCredentials({ config: emptyConfig, store, env: {}, fetch: unreachable })).resolves.toEqual({
      kind: "configured",
    });
  });

  it("R-CF-5: a local Ollama that answers becomes a keyless provider with its first model suggested", async () => {
    const host = await serve((request, response) => {
      expect(request.url).toBe("/api/tags");
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ models: [{ name: "llama3.2:1b" }, { name: "qwen2" }] }));
    });
    const result = await discoverCredentials({
      config: emptyConfig,
      store: new MemoryStateStore(),
      env: { OLLAMA_HOST: host },
      // What is tested is the answer, not the probe's short timeout (its own test below): a busy machine may be slow.
      ollamaTimeoutMs: 10_000,
    });
    expect(result).toEqual({
      kind: "discovered",
      envProfiles: [],
      ollama: { baseUrl: `http://${host}`, models: ["llama3.2:1b", "qwen2"] },
      suggestedModel: "ollama/llama3.2:1b",
    });
  });

  it("R-CF-5: an Ollama that does not answer in time is ignored", async () => {
    const host = await serve(() => {
      // Never answers: the probe must give up after its short timeout.
    });
    const started = performance.now();
    const found = await probeOllama(`http://${host}`, globalThis.fetch as unknown as FetchLike, 150);
    expect(found).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("R-CF-5: a server on the Ollama port that is not Ollama does not count", async () => {
    const host = await serve((_request, response) => response.end(JSON.stringify({ hello: "world" })));
    expect(await probeOllama(`http://${host}`, globalThis.fetch as unknown as FetchLike, 1000)).toBeUndefined();
  });

  it("R-CF-5: env profiles are discovered without a model suggestion", async () => {
    const result = await discoverCredentials({
      config: emptyConfig,
      store: new MemoryStateStore(),
      env: { ANTHROPIC_API_KEY: "sk-ant-x" },
      fetch: unreachable,
    });
    expect(result).toEqual({
      kind: "discovered",
      envProfiles: [{ profileId: "anthropic:env", provider: "anthropic", variable: "ANTHROPIC_API_KEY" }],
    });
  });

  it("R-CF-5: with nothing at all, one paragraph shows the three ways to add a credential", async () => {
    const attempt = discoverCredentials({ config: emptyConfig, store: new MemoryStateStore(), env: {}, fetch: unreachable });
    await expect(attempt).rejects.toBeInstanceOf(NoCredentialsError);
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).not.toContain("\n");
    expect(message).toContain("export OPENAI_API_KEY=");
    expect(message).toContain("detour auth add openai --key -");
    expect(message).toContain("detour.json5");
  });

  it("R-CF-5: a configured keyless provider is a deliberate setup, not 'nothing at all'", async () => {
    const config = parseConfig({
      models: { providers: { local: { api: "openai-chat", baseUrl: "http://127.0.0.1:9" } } },
    }).config;
    await expect(discoverCredentials({ config, store: new MemoryStateStore(), env: {}, fetch: unreachable })).resolves.toEqual({
      kind: "discovered",
      envProfiles: [],
    });
  });
});
