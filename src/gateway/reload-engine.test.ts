import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseConfig, type DetourConfigInput } from "../config/index.js";
import { createDetour, type Detour } from "../engine/create-detour.js";
import { startMockProvider, type MockProvider } from "../testing/mock-provider/index.js";
import { GatewayBindError } from "./auth.js";
import { keepRestartOnlySettings, startGateway, type RunningGateway } from "./start-gateway.js";

let running: RunningGateway | undefined;
const detours: Detour[] = [];
afterEach(async () => {
  await running?.close();
  running = undefined;
  for (const detour of detours.splice(0)) await detour.close();
});

const mocks: MockProvider[] = [];
beforeAll(async () => {
  mocks.push(await startMockProvider(), await startMockProvider());
});
afterAll(async () => {
  for (const mock of mocks) await mock.close();
});

const base = { state: { backend: "memory" as const }, agents: { defaults: { model: "openai/gpt-test" } } };

async function engine(input: DetourConfigInput) {
  const { config } = parseConfig(input, "test");
  const detour = await createDetour({ config, env: {} });
  detours.push(detour);
  return { detour, config };
}

describe("RunningGateway.reloadEngine", () => {
  it("serves new requests with the new config: client tokens are read per request", async () => {
    running = await startGateway({ config: base, port: 0, env: {} });
    expect((await fetch(`${running.url}/v1/models`)).status).toBe(200);
    const next = await engine({ ...base, gateway: { auth: { tokens: ["a-reloaded-token"] } } });
    await running.reloadEngine(next);
    expect(running.detour).toBe(next.detour);
    expect((await fetch(`${running.url}/v1/models`)).status).toBe(401);
    const allowed = await fetch(`${running.url}/v1/models`, { headers: { authorization: "Bearer a-reloaded-token" } });
    expect(allowed.status).toBe(200);
  });

  it("R-GW-5: a reload that would leave a non-loopback binding without client tokens is refused and swaps nothing", async () => {
    running = await startGateway({
      config: { ...base, gateway: { auth: { tokens: ["a-client-token"] } } },
      host: "0.0.0.0",
      port: 0,
      env: {},
    });
    const before = running.detour;
    const open = await engine(base);
    expect(() => running?.reloadEngine(open)).toThrow(GatewayBindError);
    expect(running.detour).toBe(before);
    expect((await fetch(`http://127.0.0.1:${running.port}/v1/models`)).status).toBe(401);
  });

  it("keeps gateway.host, gateway.port and gateway.maxBodyMb at their running values and names them", () => {
    const running = parseConfig(base, "running").config;
    const next = parseConfig({ ...base, gateway: { host: "::1", port: 9999, maxBodyMb: 3, notices: "inline" } }, "next").config;
    const kept = keepRestartOnlySettings(running, next);
    expect(kept.changed).toEqual(["gateway.host", "gateway.port", "gateway.maxBodyMb"]);
    expect(kept.config.gateway).toMatchObject({
      host: running.gateway.host,
      port: running.gateway.port,
      maxBodyMb: running.gateway.maxBodyMb,
      notices: "inline",
    });
    expect(keepRestartOnlySettings(running, running).changed).toEqual([]);
  });

  it("R-GW-6: the reloaded engine brings its own same-wire lane: the client's bytes reach the new config's provider", async () => {
    const [first, second] = mocks as [MockProvider, MockProvider];
    const configFor = (mock: MockProvider) => ({ ...base, models: { providers: { openai: { baseUrl: `${mock.url}/v1` } } } });
    const detour = await createDetour({
      config: configFor(first),
      env: { OPENAI_API_KEY: "sk-reload-0123456789" },
      discoverEnvCredentials: true,
    });
    detours.push(detour);
    running = await startGateway({ detour, port: 0, env: {} });
    // A field no canonical request carries: only the same-wire lane forwards it.
    const body = JSON.stringify({ model: "openai/gpt-test", messages: [{ role: "user", content: "hi" }], x_only_on_the_wire: "kept" });
    const post = () =>
      fetch(`${running!.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect((await post()).status).toBe(200);
    expect(JSON.stringify(first.requests().at(-1)?.body)).toContain("x_only_on_the_wire");

    const nextConfig = parseConfig(configFor(second), "next").config;
    const next = await detour.reload(nextConfig);
    detours.unshift(next);
    await running.reloadEngine({ detour: next, config: nextConfig });
    expect((await post()).status).toBe(200);
    expect(JSON.stringify(second.requests().at(-1)?.body)).toContain("x_only_on_the_wire");
  });
});
