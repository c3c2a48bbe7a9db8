/**
 * What createDetour builds for the front ends beyond the library API: R-CF-5 discovery (a local Ollama
 * becomes the provider every lane calls), the same-wire lane, and the engine for a reloaded config over the
 * same stores. Real loopback HTTP against the mock provider.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockProvider, type MockProvider } from "../testing/mock-provider/index.js";
import { ScriptedProvider } from "../testing/scripted-provider.js";
import { createDetour } from "./create-detour.js";
import { DetourClosedError } from "./engine-errors.js";

const MEMORY = { state: { backend: "memory" as const } };
const HELLO = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hello" }] }] };

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
  // Discovery gives Ollama 400 ms to answer: the mock's first answer (loading its wire modules) must not count.
  await (await fetch(`${mock.url}/api/tags`)).json();
});
afterAll(async () => {
  await mock?.close();
});

describe("createDetour for the front ends", () => {
  it("R-CF-5: discoverCredentials finds a local Ollama at OLLAMA_HOST and the engine's run calls it there", async () => {
    const detour = await createDetour({ config: MEMORY, env: { OLLAMA_HOST: mock.url.replace("http://", "") }, discoverCredentials: {} });
    try {
      expect(detour.discovery).toMatchObject({
        kind: "discovered",
        envProfiles: [],
        ollama: { baseUrl: mock.url },
        suggestedModel: "ollama/mock-gpt",
      });
      const outcome = await detour.run({ model: "ollama/mock-gpt", request: HELLO });
      expect(outcome).toMatchObject({ provider: "ollama", model: "mock-gpt" });
      expect(mock.requests().at(-1)).toMatchObject({ api: "ollama", model: "mock-gpt" });
      // The config itself is left as given: only the providers reach the discovered server.
      expect(Object.hasOwn(detour.config.models.providers, "ollama")).toBe(false);
    } finally {
      await detour.close();
    }
  });

  it("R-CF-5: with nothing at all, createDetour fails with NoCredentialsError", async () => {
    await expect(createDetour({ config: MEMORY, env: { OLLAMA_HOST: "127.0.0.1:9" }, discoverCredentials: {} })).rejects.toMatchObject({
      code: "DETOUR_NO_CREDENTIALS",
    });
  });

  it("without discoverCredentials nothing is probed and discovery is undefined", async () => {
    const detour = await createDetour({ config: MEMORY, env: {} });
    expect(detour.discovery).toBeUndefined();
    await detour.close();
  });

  it("builds the same-wire lane over the config's providers, none over providers that cannot be called raw", async () => {
    const configured = await createDetour({
      config: { ...MEMORY, models: { providers: { openai: { baseUrl: `${mock.url}/v1` } } } },
      env: {},
    });
    expect(configured.passThrough).toBeDefined();
    await configured.close();
    const scripted = await createDetour({ config: MEMORY, env: {}, providers: [new ScriptedProvider({ id: "openai" })] });
    expect(scripted.passThrough).toBeUndefined();
    await scripted.close();
  });

  it("reload builds the engine for a new config over the same stores; closing it leaves them open", async () => {
    const env = { OLLAMA_HOST: mock.url.replace("http://", "") };
    const base = await createDetour({ config: MEMORY, env, discoverCredentials: {} });
    try {
      await base.sessions.patch("s1", { model: "ollama/mock-gpt" });
      const next = await base.reload(base.config);
      expect(next.discovery).toEqual(base.discovery);
      expect(await next.store()).toBe(await base.store());
      expect(await next.sessions.get("s1")).toMatchObject({ modelOverride: "mock-gpt" });
      const outcome = await next.run({ sessionKey: "s1", request: HELLO });
      expect(outcome).toMatchObject({ provider: "ollama", model: "mock-gpt" });
      // Its runs are traced into the stores of the engine it follows, so the request log keeps them.
      expect(await next.traces.list()).toHaveLength(1);
      expect((await base.traces.list()).map((trace) => trace.runId)).toEqual([outcome.runId]);
      // A reload of a reloaded engine still follows the engine that owns the stores.
      const third = await next.reload(base.config);
      expect(await third.store()).toBe(await base.store());
      await third.close();
      await next.close();
      expect(await base.sessions.get("s1")).toMatchObject({ modelOverride: "mock-gpt" });
    } finally {
      await base.close();
    }
    await expect(base.reload(base.config)).rejects.toBeInstanceOf(DetourClosedError);
  });

  it("readOnly: looking at an agent with no state creates no folder, file or key, and writes no trace", async () => {
    const parent = mkdtempSync(join(tmpdir(), "detour-read-only-"));
    const home = join(parent, "home");
    try {
      const detour = await createDetour({ config: { state: { backend: "sqlite" } }, env: { DETOUR_HOME: home }, readOnly: true });
      expect((await detour.status()).agents.map((agent) => agent.agentId)).toEqual(["main"]);
      await detour.runWith({ attempt: async () => "looked" }).catch(() => undefined);
      await detour.close();
      expect(existsSync(home)).toBe(false);

      const writing = await createDetour({ config: { state: { backend: "sqlite" } }, env: { DETOUR_HOME: home } });
      await writing.status();
      await writing.close();
      expect(readdirSync(home).length).toBeGreaterThan(0);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
