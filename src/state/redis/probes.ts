/**
 * The Redis store's probe throttle (R-FB-4): one key per probe slot that expires with its interval, so
 * abandoned claims clean themselves up. During an outage claims are process-local, like the memory store's.
 */
import type { ProbesStore } from "../../ports/state-store.js";
import { TAKE_OVER_PROBE } from "./lua-scripts.js";
import type { RedisConnection } from "./redis-connection.js";
import type { Route } from "./route.js";

export class RemoteProbes {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    const redisKey = this.#redis.keys.probe(key);
    const expiryMs = Math.max(1, Math.ceil(intervalMs));
    const claimed = await this.#redis.client.set(redisKey, String(now), { condition: "NX", expiration: { type: "PX", value: expiryMs } });
    if (claimed === "OK") return true;
    return Number(await this.#redis.run(TAKE_OVER_PROBE, [redisKey], [now, intervalMs, expiryMs])) === 1;
  }

  async getLastProbeAt(key: string): Promise<number | undefined> {
    const claimedAt = await this.#redis.client.get(this.#redis.keys.probe(key));
    return claimedAt == null ? undefined : Number(claimedAt);
  }
}

export class RedisProbes implements ProbesStore {
  readonly #run: Route<RemoteProbes>;

  constructor(run: Route<RemoteProbes>) {
    this.#run = run;
  }

  tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    return this.#run(
      (r) => r.tryClaimProbe(key, now, intervalMs),
      (v) => v.tryClaimProbe(key, now, intervalMs),
      {
        mirror: (view, claimed) => (claimed ? view.tryClaimProbe(key, now, 0) : Promise.resolve(false)),
      },
    );
  }

  getLastProbeAt(key: string): Promise<number | undefined> {
    return this.#run(
      (r) => r.getLastProbeAt(key),
      (v) => v.getLastProbeAt(key),
    );
  }
}
