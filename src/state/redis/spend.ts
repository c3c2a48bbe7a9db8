/**
 * Spend per profile and hour on Redis (R-GW-7), shared by every replica: one hash per hour bucket
 * (profile id → dollars), added to with HINCRBYFLOAT (atomic server-side, so concurrent replicas all count)
 * and expiring once the bucket leaves the 24-hour window — bounded without any cleanup pass. Not journaled
 * during an outage: spend charged then stays in this process's local view.
 */
import { isRecordableCost, oldestSpendHour, SPEND_BUCKET_MS, SPEND_BUCKETS_KEPT, spendHourOf } from "../../core/spend.js";
import type { SpendStore } from "../../ports/state-store.js";
import type { RedisClient } from "./redis-connection.js";
import type { Route } from "./route.js";

export class RemoteSpend {
  readonly #client: RedisClient;
  readonly #keyOf: (hour: number) => string;

  constructor(client: RedisClient, keyOf: (hour: number) => string) {
    this.#client = client;
    this.#keyOf = keyOf;
  }

  async record(profileId: string, costUsd: number, now: number): Promise<void> {
    if (!isRecordableCost(costUsd)) return;
    const hour = spendHourOf(now);
    const key = this.#keyOf(hour);
    // Relative, not PEXPIREAT: `now` is the caller's clock (a fake one in tests), not Redis's.
    const leavesWindowAt = (hour + SPEND_BUCKETS_KEPT) * SPEND_BUCKET_MS;
    await this.#client
      .multi()
      .hIncrByFloat(key, profileId, costUsd)
      .pExpire(key, Math.max(1, leavesWindowAt - now))
      .exec();
  }

  async byProfile(now: number): Promise<Record<string, number>> {
    const batch = this.#client.multi();
    for (let hour = oldestSpendHour(now); hour <= spendHourOf(now); hour += 1) batch.hGetAll(this.#keyOf(hour));
    const buckets = (await batch.exec()) as unknown as Record<string, string>[];
    const totals: Record<string, number> = {};
    for (const bucket of buckets) {
      for (const [profileId, text] of Object.entries(bucket ?? {})) {
        const costUsd = Number(text);
        if (Number.isFinite(costUsd) && costUsd > 0) totals[profileId] = (totals[profileId] ?? 0) + costUsd;
      }
    }
    return totals;
  }
}

export class RedisSpend implements SpendStore {
  readonly #run: Route<RemoteSpend>;

  constructor(run: Route<RemoteSpend>) {
    this.#run = run;
  }

  recordSpend(profileId: string, costUsd: number, now: number): Promise<void> {
    return this.#run(
      (r) => r.record(profileId, costUsd, now),
      (v) => v.recordSpend(profileId, costUsd, now),
    );
  }

  spendByProfile(now: number): Promise<Record<string, number>> {
    return this.#run(
      (r) => r.byProfile(now),
      (v) => v.spendByProfile(now),
    );
  }
}
