/** A gateway app over a scripted Detour, for `inject()` tests. */
import type { FastifyInstance } from "fastify";
import { afterEach } from "vitest";
import { parseConfig, type DetourConfigInput } from "../../config/index.js";
import { createScriptedDetour, type ScriptedDetour } from "../../engine/__fixtures__/scripted-detour.js";
import { FakeClock } from "../../testing/fake-clock.js";
import { buildGatewayApp } from "../app.js";

export interface TestGateway extends ScriptedDetour {
  app: FastifyInstance;
  clock: FakeClock;
}

export const BASE_CONFIG: DetourConfigInput = {
  agents: {
    defaults: {
      model: { primary: "openai/gpt-a", fallbacks: ["anthropic/claude-b"] },
      models: { "anthropic/claude-b": { alias: "claude" } },
      modelFailover: { retrySameProfileOnTimeout: 0, retrySameProfileOnServerError: 0, shortWaitSeconds: 0, waitForCooldownMaxSeconds: 0 },
    },
    list: [{ id: "research", model: { primary: "anthropic/claude-b", fallbacks: [] } }],
  },
  state: { backend: "memory" },
};

export async function createTestGateway(
  options: { gateway?: DetourConfigInput["gateway"]; host?: string; config?: DetourConfigInput } = {},
): Promise<TestGateway> {
  const clock = new FakeClock();
  const input: DetourConfigInput = { ...(options.config ?? BASE_CONFIG), ...(options.gateway ? { gateway: options.gateway } : {}) };
  const { config } = parseConfig(input);
  const scripted = await createScriptedDetour({ clock, config: input });
  const app = await buildGatewayApp({
    detour: scripted.detour,
    config,
    clock,
    ...(options.host !== undefined ? { host: options.host } : {}),
  });
  return { ...scripted, app, clock };
}

export const openAIBody = (text: string, extra: Record<string, unknown> = {}) => ({
  model: "detour",
  messages: [{ role: "user", content: text }],
  ...extra,
});

export const anthropicBody = (text: string, extra: Record<string, unknown> = {}) => ({
  model: "detour",
  max_tokens: 64,
  messages: [{ role: "user", content: text }],
  ...extra,
});

/** The `data:` payloads of an SSE body, with their event names. */
export function sseEvents(body: string): { event?: string; data: string }[] {
  return body
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7);
      const data = lines
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      return event === undefined ? { data } : { event, data };
    });
}

/**
 * For a test file whose tests each start their own gateway(s): returns `start(options)`, and registers the
 * `afterEach` that closes every gateway the test started.
 */
export function gatewayPerTest(): (options?: Parameters<typeof createTestGateway>[0]) => Promise<TestGateway> {
  const started: TestGateway[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((gateway) => gateway.app.close()));
  });
  return async (options = {}) => {
    const gateway = await createTestGateway(options);
    started.push(gateway);
    return gateway;
  };
}
