/** Shared values of the store contract: fixed times, the documented cooldown defaults, sample credentials. */
import { expect } from "vitest";
import type { ApiKeyCredential, CooldownSettings, Credential, OAuthCredential, UsageStats } from "../../../core/types.js";
import type { RecordFailureParams, StateStore } from "../../../ports/state-store.js";
import type { ContractStoreHandle } from "./index.js";

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

/** The documented defaults of R-CF-3, written out so the contract does not depend on the config loader. */
export const CONTRACT_COOLDOWNS: CooldownSettings = Object.freeze({
  billingBackoffHours: 5,
  billingBackoffHoursByProvider: Object.freeze({ openrouter: 1 }),
  billingMaxHours: 24,
  authPermanentBackoffMinutes: 10,
  authPermanentMaxMinutes: 60,
  failureWindowHours: 24,
  overloadedProfileRotations: 1,
  overloadedBackoffMs: 0,
  rateLimitedProfileRotations: 1,
  ladderSeconds: Object.freeze([30, 60, 300]),
  timeoutLadderSeconds: Object.freeze([10, 20, 40, 80, 160, 300]),
});

export const apiKey: ApiKeyCredential = { type: "api_key", provider: "openai", key: "sk-contract-secret-0001" };
export const oauth: OAuthCredential = {
  type: "oauth",
  provider: "anthropic",
  access: "access-contract-secret-0002",
  refresh: "refresh-contract-secret-0003",
  expires: NOW + HOUR,
  email: "ada@example.com",
  accountId: "acct-1",
  projectId: "proj-1",
  enterpriseUrl: "https://enterprise.example.com",
};
export const token: Credential = { type: "token", provider: "google", token: "token-contract-secret-0004", expires: NOW + HOUR };

export function failure(reason: RecordFailureParams["reason"], extra: Partial<RecordFailureParams> = {}): RecordFailureParams {
  return { reason, provider: "openai", now: NOW, cooldowns: CONTRACT_COOLDOWNS, ...extra };
}

/** What R-CD-7 clears (`lastFailureAt` stays: it only dates the failure window, R-CD-1). */
const WINDOW_AND_COUNTER_FIELDS = [
  "errorCount",
  "failureCounts",
  "cooldownUntil",
  "cooldownReason",
  "cooldownModel",
  "disabledUntil",
  "disabledReason",
  "blockedUntil",
  "blockedReason",
  "blockedModel",
] as const satisfies readonly (keyof UsageStats)[];

export function expectNoActiveState(stats: UsageStats | undefined): void {
  for (const field of WINDOW_AND_COUNTER_FIELDS) {
    if (field === "errorCount") expect(stats?.errorCount ?? 0).toBe(0);
    else if (field === "failureCounts") expect(stats?.failureCounts ?? {}).toEqual({});
    else expect(stats?.[field]).toBeUndefined();
  }
}

/** What a backend offers beyond the reference memory store; decides which extra contract parts run. */

/** What a part of the contract gets from the suite: the store of the current test and helpers. */
export interface ContractContext {
  store(): StateStore;
  handle(): ContractStoreHandle;
  /** Another handle on the same state, closed after the test. */
  sibling(): Promise<StateStore>;
}
