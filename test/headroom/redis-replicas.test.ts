/**
 * R-PO-7 across replicas: two gateways share one Redis (unique key prefix); a reading one of them takes
 * from a provider answer steers the other one's next request before it can hit the 429.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../../src/config/index.js";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import type { DetourEvent } from "../../src/ports/events.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { startMockProvider } from "../../src/testing/mock-provider/index.js";
import { deleteKeysWithPrefix, dumpKeysWithPrefix, requireSharedRedis, SHARED_REDIS_URL, uniquePrefix } from "../state/helpers/redis.js";

const TOKEN = "headroom-replica-client-token";
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function chat(gateway: RunningGateway): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ model: "detour", messages: [{ role: "user", content: "hello" }] }),
  });
  await response.text();
  return response.status;
}

const redis = await requireSharedRedis("headroom readings shared by gateway replicas");
if (redis === "available") {
  describe("R-PO-7: replicas share headroom readings through Redis", () => {
    it("R-PO-7: a reading taken by one gateway steers the other (real Redis, unique prefix)", async () => {
      const clock = new FakeClock();
      const mock = await startMockProvider({ clock, budgets: { "sk-replica-a": { requests: 1 }, "sk-replica-b": { requests: 100 } } });
      cleanups.push(() => mock.close());
      const keyPrefix = uniquePrefix();
      cleanups.push(() => deleteKeysWithPrefix(SHARED_REDIS_URL, keyPrefix));
      const home = mkdtempSync(join(tmpdir(), "detour-headroom-"));
      cleanups.push(() => rmSync(home, { recursive: true, force: true }));
      const env = {
        DETOUR_HOME: home,
        DETOUR_SECRET_KEY: randomBytes(32).toString("base64"),
        REPLICA_KEY_A: "sk-replica-a",
        REPLICA_KEY_B: "sk-replica-b",
      };
      const config: DetourConfigInput = {
        models: { providers: { openai: { api: "openai-chat", baseUrl: `${mock.url}/v1`, timeoutSeconds: 5 } } },
        auth: {
          profiles: {
            "openai:a": { provider: "openai", mode: "api_key", keyRef: { env: "REPLICA_KEY_A" } },
            "openai:b": { provider: "openai", mode: "api_key", keyRef: { env: "REPLICA_KEY_B" } },
          },
          // An explicit order: without a reading every replica would start with openai:a.
          order: { openai: ["openai:a", "openai:b"] },
        },
        agents: {
          defaults: {
            model: { primary: "openai/mock-gpt", fallbacks: [] },
            modelFailover: { retrySameProfileOnTimeout: 0, shortWaitSeconds: 0, waitForCooldownMaxSeconds: 0 },
          },
        },
        gateway: { auth: { tokens: [TOKEN] } },
        state: { backend: "redis", redis: { url: SHARED_REDIS_URL, keyPrefix } },
      };
      const first = await startGateway({ config, port: 0, clock, env });
      cleanups.push(() => first.close());
      const second = await startGateway({ config, port: 0, clock, env });
      cleanups.push(() => second.close());
      const secondEvents: DetourEvent[] = [];
      const detour = second.detour as { on?: (type: "*", listener: (event: DetourEvent) => void) => unknown };
      detour.on?.("*", (event) => void secondEvents.push(event));

      expect(await chat(first)).toBe(200);
      // The answer said openai:a has no request left in its window; the reading is in Redis now.
      expect(mock.budgets()["sk-replica-a"]?.windows[0]?.used).toBe(1);
      // The write is off the response's critical path: wait until it has reached Redis.
      for (let tries = 0; tries < 100; tries += 1) {
        const keys = Object.keys(await dumpKeysWithPrefix(SHARED_REDIS_URL, keyPrefix));
        if (keys.some((key) => key.endsWith(":headroom:openai:a"))) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      clock.advance(1000);
      expect(await chat(second)).toBe(200);

      expect(mock.budgets()["sk-replica-a"]?.rejected).toBe(0);
      expect(mock.budgets()["sk-replica-b"]?.windows[0]?.used).toBe(1);
      expect(secondEvents).toContainEqual(
        expect.objectContaining({ type: "headroom_passed_over", profileId: "openai:a", toProfileId: "openai:b", window: "requests" }),
      );
    });
  });
}
