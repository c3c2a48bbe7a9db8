/**
 * R-PO-8 end to end: three subscription accounts that each allow 2 requests at once, two gateway replicas
 * (separate processes) sharing one Redis, and 20 requests at once. The mock provider refuses a third request
 * on an account with a concurrency 429 and records the most in flight per key at every moment.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../../src/config/index.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { deleteKeysWithPrefix, requireSharedRedis, SHARED_REDIS_URL, uniquePrefix } from "../state/helpers/redis.js";

const TOKEN = "seats-e2e-client-token-5d1c";
const KEYS = { a: "sk-seats-account-a-1111", b: "sk-seats-account-b-2222", c: "sk-seats-account-c-3333" } as const;
const QUEUE_TIMEOUT_SECONDS = 30;
const replicaScript = fileURLToPath(new URL("./children/gateway-replica.ts", import.meta.url));

interface Replica {
  url: string;
  process: ChildProcess;
  exited: Promise<number | null>;
}

function startReplica(config: DetourConfigInput, env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, ["--import", "tsx", replicaScript, JSON.stringify({ config, env })], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let errors = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const match = /listening (\S+)\n/.exec(buffered);
      if (match) resolve({ url: match[1] as string, process: child, exited });
    });
    void exited.then((code) => reject(new Error(`replica exited (${code}) before listening:\n${errors}`)));
  });
}

async function chat(replica: Replica, stream = false): Promise<{ status: number; ms: number; retryAfter: string | null }> {
  const started = Date.now();
  const response = await fetch(`${replica.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ model: "openai/mock-gpt", stream, messages: [{ role: "user", content: "one sub-agent's turn" }] }),
  });
  await response.text();
  return { status: response.status, ms: Date.now() - started, retryAfter: response.headers.get("retry-after") };
}

const slow = (delayMs: number) => ({ rules: [{ steps: [{ fault: "slow-first-token" as const, delayMs }], then: "repeat-last" as const }] });

const redis = await requireSharedRedis("seats shared by gateway replicas");
if (redis === "available") {
  describe("R-PO-8: seats shared by gateway replicas through Redis", () => {
    let mock: MockProvider;
    let home: string;
    let keyPrefix: string;
    const replicas: Replica[] = [];
    let config: DetourConfigInput;
    let env: Record<string, string>;

    beforeAll(async () => {
      mock = await startMockProvider({
        scenario: slow(300),
        concurrencyLimits: { [KEYS.a]: 2, [KEYS.b]: 2, [KEYS.c]: 2 },
        recordLimit: 200,
      });
      home = mkdtempSync(join(tmpdir(), "detour-seats-e2e-"));
      keyPrefix = uniquePrefix();
      env = {
        DETOUR_HOME: home,
        DETOUR_SECRET_KEY: randomBytes(32).toString("base64"),
        SEAT_KEY_A: KEYS.a,
        SEAT_KEY_B: KEYS.b,
        SEAT_KEY_C: KEYS.c,
      };
      const account = (variable: string) => ({ provider: "openai", mode: "api_key" as const, keyRef: { env: variable }, maxConcurrent: 2 });
      config = {
        models: { providers: { openai: { api: "openai-chat", baseUrl: `${mock.url}/v1`, timeoutSeconds: 90 } } },
        auth: { profiles: { "openai:a": account("SEAT_KEY_A"), "openai:b": account("SEAT_KEY_B"), "openai:c": account("SEAT_KEY_C") } },
        agents: { defaults: { model: { primary: "openai/mock-gpt", fallbacks: [] } } },
        gateway: { auth: { tokens: [TOKEN] }, queueTimeoutSeconds: QUEUE_TIMEOUT_SECONDS },
        state: { backend: "redis", redis: { url: SHARED_REDIS_URL, keyPrefix } },
      };
      replicas.push(...(await Promise.all([startReplica(config, env), startReplica(config, env)])));
    }, 60_000);

    afterAll(async () => {
      for (const replica of replicas) {
        if (replica.process.exitCode === null && replica.process.signalCode === null) {
          replica.process.stdin?.write("exit\n");
          await Promise.race([replica.exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
          replica.process.kill("SIGKILL");
        }
      }
      await mock?.close();
      if (home) rmSync(home, { recursive: true, force: true });
      if (keyPrefix) await deleteKeysWithPrefix(SHARED_REDIS_URL, keyPrefix);
    });

    it("R-PO-8 20 requests at once on 3 accounts of 2 seats through 2 replicas: no upstream 429, at most 2 in flight per account, all answered within queueTimeoutSeconds", async () => {
      // Half of them streamed: a stream holds its seat until its last chunk.
      const results = await Promise.all(Array.from({ length: 20 }, (_, index) => chat(replicas[index % 2] as Replica, index % 4 >= 2)));
      expect(results.map((result) => result.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(Math.max(...results.map((result) => result.ms))).toBeLessThan(QUEUE_TIMEOUT_SECONDS * 1000);
      const seen = mock.concurrency();
      for (const key of Object.values(KEYS)) {
        expect(seen[key]?.rejected ?? 0, `upstream 429s on ${key}`).toBe(0);
        expect(seen[key]?.maxInFlight ?? 0, `most in flight on ${key}`).toBeLessThanOrEqual(2);
        expect(seen[key]?.maxInFlight ?? 0, `${key} was used`).toBeGreaterThan(0);
      }
      // Every seat is back: /status of either replica counts the shared seats.
      const status = (await (await fetch(`${replicas[1]!.url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
        profiles: { id: string; seats?: { inFlight: number; limit: number | null } }[];
        queueLength: number;
      };
      expect(status.queueLength).toBe(0);
      expect(status.profiles.map((profile) => [profile.id, profile.seats?.inFlight, profile.seats?.limit])).toEqual([
        ["openai:a", 0, 2],
        ["openai:b", 0, 2],
        ["openai:c", 0, 2],
      ]);
    }, 60_000);

    it("R-PO-8 a replica killed with SIGKILL while holding every seat frees them within 30 s: the other replica's request is answered", async () => {
      mock.setScenario(slow(120_000));
      const [survivor, victim] = replicas as [Replica, Replica];
      const held = Array.from({ length: 6 }, () => chat(victim).catch(() => undefined));
      for (let tries = 0; tries < 200; tries += 1) {
        const seen = mock.concurrency();
        if (Object.values(KEYS).every((key) => seen[key]?.inFlight === 2)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(Object.values(KEYS).map((key) => mock.concurrency()[key]?.inFlight)).toEqual([2, 2, 2]);
      victim.process.kill("SIGKILL");
      await victim.exited;
      await Promise.all(held);
      mock.setScenario(slow(50));
      const killedAt = Date.now();
      const answer = await chat(survivor);
      expect(answer.status).toBe(200);
      expect(Date.now() - killedAt).toBeLessThan(30_000);
      const seen = mock.concurrency();
      for (const key of Object.values(KEYS)) expect(seen[key]?.rejected ?? 0).toBe(0);
    }, 90_000);
  });
}
