/**
 * Redis for the state tests. The shared server is 127.0.0.1:6379 (`.ci/run` starts one). When CI=true a
 * missing server is a failure, never a skip; locally the Redis tests skip with a message saying why.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, connect } from "node:net";
import { createClient } from "@redis/client";
import { it } from "vitest";

export const SHARED_REDIS_URL = "redis://127.0.0.1:6379";

/** Sends PING over a raw socket: true when a Redis answers within `timeoutMs`. */
export function redisAnswers(port = 6379, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

export type RedisAvailability = "available" | "skip";

/**
 * Decides whether the Redis tests of a file run. Returns "skip" only outside CI; under CI=true an absent
 * Redis registers a failing test instead.
 */
export async function requireSharedRedis(suite: string): Promise<RedisAvailability> {
  if (await redisAnswers()) return "available";
  if (process.env.CI === "true") {
    it(`R-SB-1: ${suite} needs Redis on 127.0.0.1:6379 (CI=true)`, () => {
      throw new Error("No Redis answers on 127.0.0.1:6379, and CI=true forbids skipping the Redis tests.");
    });
  } else {
    console.warn(`[${suite}] skipped: no Redis answers on 127.0.0.1:6379 (start redis-server to run them).`);
    // Reported as skipped; without it a file holding only Redis tests would fail as "no test suite found".
    it.skip(`R-SB-1: ${suite} (no Redis answers on 127.0.0.1:6379)`, () => {});
  }
  return "skip";
}

export function uniquePrefix(): string {
  return `detour-test-${randomUUID().slice(0, 12)}`;
}

/** Deletes every key under `prefix`, so tests leave the shared server as they found it. */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  client.on("error", () => {});
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) keys.push(...batch);
    if (keys.length > 0) await client.del(keys);
  } finally {
    client.destroy();
  }
}

/** Every key under `prefix` with its content as text (hashes, strings, sets). */
export async function dumpKeysWithPrefix(url: string, prefix: string): Promise<Record<string, string>> {
  const client = createClient({ url });
  client.on("error", () => {});
  await client.connect();
  try {
    const dump: Record<string, string> = {};
    for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) {
      for (const key of batch) {
        const type = await client.type(key);
        if (type === "hash") dump[key] = JSON.stringify(await client.hGetAll(key));
        else if (type === "string") dump[key] = String(await client.get(key));
        else if (type === "set") dump[key] = JSON.stringify(await client.sMembers(key));
        else dump[key] = `(${type})`;
      }
    }
    return dump;
  } finally {
    client.destroy();
  }
}

/** A free TCP port on loopback. */
export function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** A private, non-persistent redis-server for outage tests. */
export class OwnRedisServer {
  readonly port: number;
  #process: ChildProcess | undefined;

  constructor(port: number) {
    this.port = port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.#process = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (await redisAnswers(this.port, 200)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  /** SIGSTOP: the server keeps its data but stops answering (a hung Redis). */
  pause(): void {
    this.#process?.kill("SIGSTOP");
  }

  resume(): void {
    this.#process?.kill("SIGCONT");
  }

  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
}

export async function redisServerInstalled(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn("redis-server", ["--version"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
}
