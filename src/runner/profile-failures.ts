/**
 * Writing one classified failure to a profile (§5), shared by the auth-profile runner and by failures a
 * streaming caller reports after the commit point (R-ST-2). What is recorded comes from REASON_POLICY;
 * providers with `cooldowns: false` record nothing (R-CD-5).
 */
import { unusableUntil } from "../core/cooldown.js";
import { REASON_POLICY } from "../core/reasons.js";
import type { Classification, CooldownSettings, UsageStats } from "../core/types.js";
import type { EventSink } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";

export interface RecordProfileFailureInput {
  agentId: string;
  runId?: string;
  provider: string;
  model?: string;
  profileId: string | undefined;
  classification: Classification;
  now: number;
  /** When the failing attempt (with its same-profile retries) started: one incident, one step (R-CD-1). */
  attemptStartedAt?: number;
  /** The attempt followed a waited-out stated reset on this profile (R-RN-6, R-CD-6 trust-once). */
  afterStatedWait?: boolean;
}

export interface ProfileFailureDeps {
  store: StateStore;
  events: EventSink;
  cooldowns: CooldownSettings;
  providerRecordsCooldowns(provider: string): boolean;
}

/** Returns the stats written, or undefined when the failure is not recorded on any profile. */
export async function recordProfileFailure(deps: ProfileFailureDeps, input: RecordProfileFailureInput): Promise<UsageStats | undefined> {
  const { classification } = input;
  if (input.profileId === undefined) return undefined;
  if (!REASON_POLICY[classification.reason].recordOnProfile) return undefined;
  if (!deps.providerRecordsCooldowns(input.provider)) return undefined;

  const stats = await deps.store.recordFailure(input.profileId, {
    reason: classification.reason,
    provider: input.provider,
    model: input.model,
    now: input.now,
    resetAt: classification.resetAt,
    cooldowns: deps.cooldowns,
    attemptStartedAt: input.attemptStartedAt,
    afterStatedWait: input.afterStatedWait,
  });
  const until = unusableUntil(stats, input.model, input.now);
  deps.events.emit({
    type: "profile_failure_recorded",
    agentId: input.agentId,
    runId: input.runId ?? null,
    provider: input.provider,
    model: input.model ?? null,
    profileId: input.profileId,
    reason: classification.reason,
    cooldownMs: until === undefined ? 0 : until - input.now,
    stats,
  });
  return stats;
}
