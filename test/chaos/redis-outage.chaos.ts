/**
 * Redis outage under load (R-SB-3, R-SB-5): two gateway replicas share a private redis-server
 * (never the shared one on 6379) while clients keep sending requests; the server is killed for 10 s and
 * started again empty (`--save ""`, the harshest restart: it lost its data).
 *
 * - No failed request: one provider stays healthy throughout, so every request has a candidate that can
 *   serve it; the other faults at 25 % so failures keep being recorded (and journaled during the outage).
 * - Writes asked for (session patches with the default `required` durability, like `detour sessions patch`
 *   or the admin API) either land — and are in Redis after the restart — or fail loudly with
 *   `DETOUR_STORE_UNAVAILABLE`; nothing is acknowledged and then lost.
 * - Convergence: both replicas share Redis again; what each acknowledged before the outage is back in the
 *   restarted Redis, and a fresh reader sees the same profile stats as both replicas.
 * Prints the figures.
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { RedisStateStore } from "../../src/state/redis/redis-store.js";
import type { SecretKey } from "../../src/state/secrets.js";
import { StoreUnavailableError } from "../../src/state/state-errors.js";
import { startMockProvider, type MockRuleInput } from "../../src/testing/mock-provider/index.js";
import { SeededRandom } from "../../src/testing/seeded-random.js";
import { OwnRedisServer, redisServerInstalled, sparePort, uniquePrefix } from "../state/helpers/redis.js";

const OUTAGE_MS = 10_000;
const BEFORE_MS = 3_000;
const AFTER_MS = 3_000;
const CONCURRENCY = 8;
const TOKEN = "chaos-client-token";
const KEYS = ["openai:a", "openai:b", "anthropic:a", "anthropic:b"].map((profileId) => ({
  profileId,
  provider: profileId.split(":")[0] as string,
  key: `sk-chaos-${profileId.replace(":", "-")}-0123456789`,
  env: `CHAOS_${profileId.replace(":", "_").toUpperCase()}`,
}));
const FAULTS: MockRuleInput["steps"] = [{ fault: "rate-limit" }, { fault: "unavailable" }, { fault: "reset" }, { fault: "server-error" }];

function faultySteps(seed: number, length: number): MockRuleInput["steps"] {
  const random = new SeededRandom(seed);
  return Array.from({ length }, () =>
    random.next() < 0.25 ? (FAULTS[Math.floor(random.next() * FAULTS.length)] as MockRuleInput["steps"][number]) : "ok",
  );
}

type Phase = "before" | "outage" | "after";

const installed = await redisServerInstalled();

describe("chaos: Redis outage", () => {
  it("R-SB-3: Redis killed for 10 s under load and restarted empty: no failed request, loud or landed writes, converged state", async () => {
    expect(installed, "redis-server must be installed for the chaos suite").toBe(true);
    const server = new OwnRedisServer(await sparePort());
    await server.start();
    const secretKey: SecretKey = { key: randomBytes(32), source: "a chaos test key" };
    const keyPrefix = uniquePrefix();
    const connect = () =>
      RedisStateStore.connect({ url: server.url, keyPrefix, agentId: "main", secretKey, commandTimeoutMs: 300, recoveryIntervalMs: 100 });
    const replicas = [await connect(), await connect()];
    const mock = await startMockProvider({
      models: ["mock-gpt", "mock-claude"],
      scenario: KEYS.map((entry, index) => ({
        name: entry.key,
        match: { key: entry.key },
        steps: entry.provider === "openai" ? faultySteps(index + 1, 20_000) : ["ok"],
        then: "ok",
      })),
    });
    const gateways: RunningGateway[] = [];
    const cleanups: (() => Promise<void>)[] = [() => mock.close(), () => server.stop()];
    try {
      for (const store of replicas) {
        cleanups.unshift(() => store.close());
        const gateway = await startGateway({
          port: 0,
          store,
          env: Object.fromEntries(KEYS.map((entry) => [entry.env, entry.key])),
          config: {
            models: {
              providers: {
                openai: { api: "openai-chat", baseUrl: `${mock.url}/v1`, timeoutSeconds: 5 },
                anthropic: { api: "anthropic-messages", baseUrl: mock.url, timeoutSeconds: 5 },
              },
            },
            auth: {
              profiles: Object.fromEntries(
                KEYS.map((entry) => [entry.profileId, { provider: entry.provider, mode: "api_key", keyRef: { env: entry.env } }]),
              ),
              cooldowns: { ladderSeconds: [0.5, 1, 2], timeoutLadderSeconds: [0.5, 1, 2] },
            },
            agents: {
              defaults: {
                model: { primary: "openai/mock-gpt", fallbacks: ["anthropic/mock-claude"] },
                modelFailover: { retrySameProfileOnTimeout: 0, retryBackoffMs: [5, 20] },
              },
            },
            gateway: { ttftTimeoutSeconds: 1, streamStallSeconds: 1, auth: { tokens: [TOKEN] } },
          },
        });
        gateways.push(gateway);
        cleanups.unshift(() => gateway.close());
      }

      let phase: Phase = "before";
      let running = true;
      const requests: Record<Phase, number> = { before: 0, outage: 0, after: 0 };
      const failures: { phase: Phase; status: number; body: string }[] = [];
      let hung = 0;
      let sent = 0;

      async function client(): Promise<void> {
        while (running) {
          const index = sent++;
          const at = phase;
          const stream = index % 2 === 0;
          try {
            const response = await fetch(`${(gateways[index % 2] as RunningGateway).url}/v1/chat/completions`, {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}`, "x-detour-session": `chaos-${index % 16}` },
              body: JSON.stringify({ model: "detour", stream, messages: [{ role: "user", content: `outage ${index}` }] }),
              signal: AbortSignal.timeout(30_000),
            });
            const body = await response.text();
            requests[at] += 1;
            const ok = response.status === 200 && (stream ? body.includes("data: [DONE]") : !body.includes('"error"'));
            if (!ok) failures.push({ phase: at, status: response.status, body: body.slice(-400) });
          } catch (error) {
            requests[at] += 1;
            if ((error as Error).name === "TimeoutError") hung += 1;
            else failures.push({ phase: at, status: 0, body: String(error) });
          }
        }
      }

      /** Writes a user asks for, on both replicas, every 50 ms: each lands or fails loudly. */
      const landed: { replica: number; sessionKey: string; value: string; phase: Phase }[] = [];
      const refused: Record<Phase, number> = { before: 0, outage: 0, after: 0 };
      const unexpected: string[] = [];
      async function writer(): Promise<void> {
        for (let index = 0; running; index += 1) {
          const replica = index % 2;
          const sessionKey = `admin-${index}`;
          const value = `model-${index}`;
          const at = phase;
          try {
            await (replicas[replica] as RedisStateStore).patchSession(sessionKey, { modelOverride: value });
            landed.push({ replica, sessionKey, value, phase: at });
          } catch (error) {
            if (error instanceof StoreUnavailableError && error.code === "DETOUR_STORE_UNAVAILABLE") refused[at] += 1;
            else unexpected.push(String(error));
          }
          await sleep(50);
        }
      }

      const load = [...Array.from({ length: CONCURRENCY }, client), writer()];
      await sleep(BEFORE_MS);
      phase = "outage";
      await server.stop();
      const stoppedAt = Date.now();
      await sleep(OUTAGE_MS);
      await server.start();
      const restartedAt = Date.now();
      phase = "after";
      while (!replicas.every((store) => store.mode === "shared") && Date.now() - restartedAt < 30_000) await sleep(20);
      const convergedMs = Date.now() - restartedAt;
      await sleep(AFTER_MS);
      running = false;
      await Promise.all(load);

      // Convergence, checked by a fresh reader of the restarted Redis.
      const reader = await connect();
      cleanups.unshift(() => reader.close());
      const lostWrites = [];
      for (const write of landed) {
        if ((await reader.getSession(write.sessionKey))?.modelOverride !== write.value) lostWrites.push(write);
      }
      const truth = await reader.getAllUsageStats();
      const views = await Promise.all(replicas.map((store) => store.getAllUsageStats()));
      const statsAgree = views.every((view) => JSON.stringify(view) === JSON.stringify(truth));
      const sessionsBack = (await reader.listSessions()).filter((entry) => entry.sessionKey.startsWith("chaos-")).length;

      const figures = {
        requests,
        failedRequests: failures.length,
        failedByPhase: {
          before: failures.filter((f) => f.phase === "before").length,
          outage: failures.filter((f) => f.phase === "outage").length,
          after: failures.filter((f) => f.phase === "after").length,
        },
        hung,
        outageSeconds: Number(((restartedAt - stoppedAt) / 1000).toFixed(1)),
        convergedMsAfterRestart: convergedMs,
        modes: replicas.map((store) => store.mode),
        writesLanded: landed.length,
        writesLandedDuringOutage: landed.filter((write) => write.phase === "outage").length,
        writesRefusedLoudly: refused,
        writesUnexpectedErrors: unexpected.length,
        landedWritesMissingAfterRestart: lostWrites.length,
        profilesWithStatsInRedis: Object.keys(truth).length,
        replicasAgreeWithRedis: statsAgree,
        clientSessionsInRedis: sessionsBack,
        upstreamAttempts: mock.counts().total,
      };
      console.log(`[chaos redis-outage] ${JSON.stringify(figures)}`);
      if (failures.length > 0) console.log(`[chaos redis-outage] first failures: ${JSON.stringify(failures.slice(0, 3), null, 1)}`);
      if (unexpected.length > 0) console.log(`[chaos redis-outage] unexpected write errors: ${unexpected.slice(0, 3).join("\n")}`);
      expect.soft(failures, "failed requests (a healthy provider could serve every one)").toEqual([]);
      expect.soft(hung, "hung requests").toBe(0);
      expect
        .soft(
          replicas.map((store) => store.mode),
          "both replicas share Redis again",
        )
        .toEqual(["shared", "shared"]);
      expect.soft(convergedMs, "ms from the restart until both replicas share Redis again").toBeLessThan(20_000);
      expect.soft(unexpected, "writes that failed without DETOUR_STORE_UNAVAILABLE").toEqual([]);
      expect.soft(refused.outage, "writes asked for during the outage were refused loudly").toBeGreaterThan(0);
      expect.soft(lostWrites, "acknowledged writes missing after the restart").toEqual([]);
      expect.soft(statsAgree, "both replicas see the stats Redis holds").toBe(true);
      expect
        .soft(Object.keys(truth).sort(), "the openai profiles' stats are back in Redis")
        .toEqual(expect.arrayContaining(["openai:a", "openai:b"]));
      expect.soft(sessionsBack, "the client sessions are back in Redis").toBeGreaterThan(0);
    } finally {
      for (const cleanup of cleanups) await cleanup().catch(() => {});
    }
  });
});
