import { afterEach, describe, expect, it } from "vitest";
import { GatewayBindError } from "./auth.js";
import { GatewayPortInUseError, startGateway, type RunningGateway } from "./start-gateway.js";

let running: RunningGateway | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const config = { state: { backend: "memory" as const }, agents: { defaults: { model: "openai/gpt-test" } } };

describe("startGateway", () => {
  it("R-GW-1: port 0 picks a free loopback port and close() stops listening", async () => {
    running = await startGateway({ config, port: 0, env: {} });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.port).toBeGreaterThan(0);
    const health = await fetch(`${running.url}/healthz`);
    expect(await health.json()).toEqual({ status: "ok" });
    const url = running.url;
    await running.close();
    running = undefined;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it("R-GW-5: binding a non-loopback host without client tokens refuses to start", async () => {
    await expect(startGateway({ config, host: "0.0.0.0", port: 0, env: {} })).rejects.toBeInstanceOf(GatewayBindError);
  });

  it("R-GW-5: a non-loopback host with client tokens starts", async () => {
    running = await startGateway({
      config: { ...config, gateway: { auth: { tokens: ["a-client-token"] } } },
      host: "0.0.0.0",
      port: 0,
      env: {},
    });
    const unauthorized = await fetch(`http://127.0.0.1:${running.port}/v1/models`);
    expect(unauthorized.status).toBe(401);
  });

  it("R-GW-1: a port in use is a clear error naming the port and --port", async () => {
    running = await startGateway({ config, port: 0, env: {} });
    const error = await startGateway({ config, port: running.port, env: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayPortInUseError);
    expect((error as Error).message).toContain(`Port ${running.port} on 127.0.0.1 is already in use`);
    expect((error as Error).message).toContain("--port");
    expect((error as { code: string }).code).toBe("DETOUR_GATEWAY_PORT_IN_USE");
  });
});
