/**
 * Opens the store a child process of the state tests works on, from a JSON description in argv.
 * Imports are per backend and nothing imports vitest, so a child starts as fast as it can.
 */
import type { CooldownSettings } from "../../../src/core/types.js";
import type { StateStore } from "../../../src/ports/state-store.js";
import { DEFAULT_COOLDOWNS } from "../../../src/config/defaults.js";

export type ChildStoreSpec =
  { backend: "sqlite"; path: string; secretKey: string } | { backend: "redis"; url: string; keyPrefix: string; secretKey: string };

/** The R-CF-3 defaults (the same values as the contract's CONTRACT_COOLDOWNS). */
export const CHILD_COOLDOWNS: CooldownSettings = DEFAULT_COOLDOWNS;

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
