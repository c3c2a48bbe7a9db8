/**
 * Opens the store a child process of the state tests works on, from a JSON description in argv.
 * Imports are per backend and nothing imports vitest, so a child starts as fast as it can.
 */
import type { CooldownSettings } from "../../../src/core/types.js";
import type { StateStore } from "../../../src/ports/state-store.js";

export type ChildStoreSpec =
  | { backend: "sqlite"; path: string; secretKey: string }
  | { backend: "redis"; url: string; keyPrefix: string; secretKey: string };

/** The R-CF-3 defaults (the same values as the contract's CONTRACT_COOLDOWNS). */
export const CHILD_COOLDOWNS: CooldownSettings = {
  billingBackoffHours: 5,
  billingBackoffHoursByProvider: {},
  billingMaxHours: 24,
  authPermanentBackoffMinutes: 10,
  authPermanentMaxMinutes: 60,
  failureWindowHours: 24,
  overloadedProfileRotations: 1,
  overloadedBackoffMs: 0,
  rateLimitedProfileRotations: 1,
  ladderSeconds: [30, 60, 300],
  timeoutLadderSeconds: [10, 20, 40, 80, 160, 300],
};

export async function openChildStore(spec: ChildStoreSpec): Promise<StateStore> {
  const { SecretBox } = await import("../../../src/state/secrets.js");
  const secretKey = { key: Buffer.from(spec.secretKey, "base64"), source: "the test key" };
  if (spec.backend === "sqlite") {
    const { SqliteStateStore } = await import("../../../src/state/sqlite/sqlite-store.js");
    return SqliteStateStore.open({ path: spec.path, secrets: new SecretBox(secretKey, spec.path) });
  }
  const { RedisStateStore } = await import("../../../src/state/redis/redis-store.js");
  return RedisStateStore.connect({ url: spec.url, keyPrefix: spec.keyPrefix, agentId: "main", secretKey });
}

/** Resolves when the parent writes a line to stdin: lets every child start its loop at the same moment. */
export function waitForGo(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once("data", () => resolve());
  });
}
