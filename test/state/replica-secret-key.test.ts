/**
 * Gateway replicas that share one Redis must share one secret key (R-SB-4 with R-SB-1's replicas): a replica
 * whose key differs — typically its own key file under its own DETOUR_HOME — refuses to start with a message
 * that says to set the same DETOUR_SECRET_KEY on every replica, instead of answering requests with errors.
 * Real Redis on 127.0.0.1:6379, real gateways started through the CLI.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { RedisStateStore } from "../../src/state/redis/redis-store.js";
import type { SecretKey } from "../../src/state/secrets.js";
import { SecretKeyNotSharedError } from "../../src/state/state-errors.js";
import { gatewayListening, runCliInProcess, type InProcessCli } from "../cli/helpers/in-process-cli.js";
import { deleteKeysWithPrefix, requireSharedRedis, SHARED_REDIS_URL, uniquePrefix } from "./helpers/redis.js";

await requireSharedRedis("replicas sharing one Redis need one secret key");

// The first gateway start imports the whole gateway stack, which takes long on a loaded machine.
vi.setConfig({ testTimeout: 180_000 });

const prefixes: string[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await deleteKeysWithPrefix(SHARED_REDIS_URL, prefix);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newPrefix(): string {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  return prefix;
}

function keyFrom(source: string): SecretKey {
  return { key: randomBytes(32), source };
}

describe("R-SB-4 replicas sharing one Redis: the store", () => {
  const stores: RedisStateStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  async function connect(keyPrefix: string, secretKey: SecretKey, agentId: string): Promise<RedisStateStore> {
    const store = await RedisStateStore.connect({ url: SHARED_REDIS_URL, keyPrefix, agentId, secretKey });
    stores.push(store);
    return store;
  }

  it("R-SB-4 a replica with another key is refused when it connects, even for an agent the first replica never used", async () => {
    const keyPrefix = newPrefix();
    await connect(keyPrefix, keyFrom("the key file /a/secret.key"), "coder");
    const refused = await RedisStateStore.connect({
      url: SHARED_REDIS_URL,
      keyPrefix,
      agentId: "main",
      secretKey: keyFrom("the key file /b/secret.key"),
    }).then(
      (store) => {
        stores.push(store);
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SecretKeyNotSharedError);
    const error = refused as SecretKeyNotSharedError;
    expect(error.code).toBe("DETOUR_SECRET_KEY_NOT_SHARED");
    expect(error.message).toContain("set DETOUR_SECRET_KEY to the same value on every replica");
    expect(error.message).toContain("the key file /b/secret.key");
  });

  it("R-SB-4 replicas with the same key share the prefix, whichever agents they open", async () => {
    const keyPrefix = newPrefix();
    const shared = keyFrom("DETOUR_SECRET_KEY");
    const first = await connect(keyPrefix, shared, "coder");
    await first.upsertProfile({ id: "openai:work", credential: { type: "api_key", provider: "openai", key: "sk-work" } });
    await connect(keyPrefix, shared, "main");
    const second = await connect(keyPrefix, shared, "coder");
    expect(await second.getProfile("openai:work")).toMatchObject({ credential: { key: "sk-work" } });
  });
});

describe("R-SB-4 replicas sharing one Redis: the gateway", () => {
  const running: InProcessCli[] = [];
  afterEach(async () => {
    for (const replica of running.splice(0)) replica.stop();
  });

  function startReplica(configPath: string, env: NodeJS.ProcessEnv): InProcessCli {
    const replica = runCliInProcess(["--config", configPath, "gateway", "--port", "0"], {
      env: { NO_COLOR: "1", DETOUR_LOG_LEVEL: "warn", ...env },
      cwd: tmpdir(),
    });
    running.push(replica);
    return replica;
  }

  function deployment(): { configPath: string; homeA: string; homeB: string } {
    const dir = mkdtempSync(join(tmpdir(), "detour-replicas-"));
    dirs.push(dir);
    const configPath = join(dir, "detour.json5");
    writeFileSync(
      configPath,
      JSON.stringify({
        state: { backend: "redis", redis: { url: SHARED_REDIS_URL, keyPrefix: newPrefix() } },
        models: { providers: { mock: { api: "openai-completions", baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "m" }] } } },
        auth: { profiles: { "mock:a": { provider: "mock", mode: "api_key", keyRef: { env: "MOCK_KEY" } } } },
        agents: { defaults: { model: { primary: "mock/m" } }, list: [{ id: "main" }, { id: "coder" }] },
      }),
    );
    return { configPath, homeA: join(dir, "a"), homeB: join(dir, "b") };
  }

  it("R-SB-4 a second replica with its own key file refuses to start and says to set the same DETOUR_SECRET_KEY on every replica", async () => {
    const { configPath, homeA, homeB } = deployment();
    const first = startReplica(configPath, { DETOUR_HOME: homeA, MOCK_KEY: "sk-a" });
    await gatewayListening(first);
    const second = startReplica(configPath, { DETOUR_HOME: homeB, MOCK_KEY: "sk-a" });
    expect(await second.exit).toBe(1);
    expect(second.stdout()).not.toContain("listening on");
    expect(second.stderr()).toContain("set DETOUR_SECRET_KEY to the same value on every replica");
    expect(second.stderr()).toContain(join(homeB, "secret.key"));
  });

  it("R-SB-4 given the first replica's key as DETOUR_SECRET_KEY, the second replica starts", async () => {
    const { configPath, homeA, homeB } = deployment();
    const first = startReplica(configPath, { DETOUR_HOME: homeA, MOCK_KEY: "sk-a" });
    await gatewayListening(first);
    const key = readFileSync(join(homeA, "secret.key"), "utf8").trim();
    const second = startReplica(configPath, { DETOUR_HOME: homeB, DETOUR_SECRET_KEY: key, MOCK_KEY: "sk-a" });
    await gatewayListening(second);
    second.stop();
    expect(await second.exit).toBe(0);
  });
});
