import { describe, expect, it } from "vitest";
import {
  BILLING_PROBE_MARGIN_MS,
  decideCandidateAvailability,
  keptOutOnlyByTransientWindows,
  ladderCooldownRecovery,
  pickLastResort,
  statedResetOpening,
  type CandidateAvailabilityInput,
} from "./availability.js";
import { FAILOVER_REASONS, REASON_POLICY, type FailoverReason } from "./reasons.js";
import type { UsageStats } from "./types.js";

const T0 = 1_700_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const cooldown = (reason: FailoverReason, untilOffset = HOUR, model?: string): UsageStats => ({
  cooldownUntil: T0 + untilOffset,
  cooldownReason: reason,
  ...(model ? { cooldownModel: model } : {}),
  failureCounts: { [reason]: 1 },
});
const disabled = (reason: "billing" | "auth_permanent", untilOffset = 5 * HOUR): UsageStats => ({
  disabledUntil: T0 + untilOffset,
  disabledReason: reason,
  failureCounts: { [reason]: 1 },
});

function decide(stats: (UsageStats | undefined)[], overrides: Partial<CandidateAvailabilityInput> = {}) {
  return decideCandidateAvailability({
    provider: "openai",
    model: "gpt-5",
    isPrimary: true,
    now: T0,
    profiles: stats.map((s, i) => (s ? { id: `openai:${i}`, stats: s } : { id: `openai:${i}` })),
    probeThrottleOpen: true,
    transientProbeUsedThisRun: false,
    ...overrides,
  });
}

const TRANSIENT = FAILOVER_REASONS.filter((r) => REASON_POLICY[r].transient);

describe("R-FB-3 availability", () => {
  it("R-FB-3: any usable profile means attempt", () => {
    expect(decide([cooldown("rate_limit"), undefined])).toEqual({ action: "attempt" });
  });

  it("R-FB-3: a provider without profiles is attempted without a credential", () => {
    expect(decide([])).toEqual({ action: "attempt" });
  });

  it("R-FB-3: a cooldown scoped to another model leaves the candidate available", () => {
    expect(decide([cooldown("rate_limit", HOUR, "gpt-4.1")])).toEqual({ action: "attempt" });
  });

  it.each(["auth", "auth_permanent"] as const)("R-FB-3: %s skips the provider, primary or not", (reason) => {
    const stats = reason === "auth" ? cooldown("auth") : disabled("auth_permanent");
    const expected = { action: "skip", reason, message: `Provider openai has ${reason} issue (skipping all models)` };
    expect(decide([stats])).toEqual(expected);
    expect(decide([stats], { isPrimary: false })).toEqual(expected);
  });

  it("R-FB-3: billing skips a non-primary candidate even near expiry", () => {
    expect(decide([disabled("billing", MINUTE)], { isPrimary: false })).toEqual({
      action: "skip",
      reason: "billing",
      message: "Provider openai has billing issue (skipping all models)",
    });
  });

  it("R-FB-3: billing skips the primary while its soonest expiry is more than 2 minutes away", () => {
    expect(decide([disabled("billing", 2 * MINUTE + 1)]).action).toBe("skip");
  });

  it("R-FB-3: billing lets the primary probe once the soonest expiry is within 2 minutes and the throttle is open", () => {
    expect(BILLING_PROBE_MARGIN_MS).toBe(2 * MINUTE);
    expect(decide([disabled("billing", 2 * MINUTE), disabled("billing", 5 * HOUR)])).toEqual({
      action: "probe",
      reason: "billing",
      transient: false,
    });
  });

  it("R-FB-3: billing near expiry does not probe while the throttle is closed", () => {
    expect(decide([disabled("billing", MINUTE)], { probeThrottleOpen: false }).action).toBe("skip");
  });

  it.each(TRANSIENT)("R-FB-3: transient %s lets the primary probe however far away the cooldown ends", (reason) => {
    expect(decide([cooldown(reason, 5 * HOUR)])).toEqual({ action: "probe", reason, transient: true });
  });

  it("R-FB-3: a transient primary is skipped while the probe throttle is closed", () => {
    expect(decide([cooldown("rate_limit")], { probeThrottleOpen: false })).toEqual({
      action: "skip",
      reason: "rate_limit",
      message: "Provider openai is in cooldown",
    });
  });

  it("R-FB-3: a provider-stated reset covering this model stops the primary probe", () => {
    const blocked: UsageStats = { blockedUntil: T0 + HOUR, blockedReason: "rate_limit", failureCounts: { rate_limit: 1 } };
    expect(decide([blocked])).toEqual({ action: "skip", reason: "rate_limit", message: "Provider openai is in cooldown" });
  });

  it("R-FB-3: a stated reset on one profile does not stop probing another profile in a ladder cooldown", () => {
    const blocked: UsageStats = { blockedUntil: T0 + HOUR, blockedReason: "rate_limit", failureCounts: { rate_limit: 1 } };
    expect(decide([blocked, cooldown("rate_limit")]).action).toBe("probe");
  });

  it("R-FB-3: a stated reset scoped to another model does not stop the probe", () => {
    const stats: UsageStats = { ...cooldown("rate_limit"), blockedUntil: T0 + HOUR, blockedModel: "gpt-4.1", blockedReason: "rate_limit" };
    expect(decide([stats]).action).toBe("probe");
  });

  it("R-FB-3: a non-primary sibling gets one transient probe per provider per run", () => {
    expect(decide([cooldown("overloaded")], { isPrimary: false })).toEqual({
      action: "probe",
      reason: "overloaded",
      transient: true,
    });
  });

  it("R-FB-3: the sibling probe ignores the primary's probe throttle", () => {
    expect(decide([cooldown("rate_limit")], { isPrimary: false, probeThrottleOpen: false }).action).toBe("probe");
  });

  it("R-FB-3: once the provider's transient probe was used, later siblings are skipped", () => {
    expect(decide([cooldown("rate_limit")], { isPrimary: false, transientProbeUsedThisRun: true })).toEqual({
      action: "skip",
      reason: "rate_limit",
      message: "Provider openai is in cooldown (probe already attempted this run)",
    });
  });

  it("R-FB-3: a non-transient cooldown (model_not_found of this very model) is skipped", () => {
    expect(decide([cooldown("model_not_found", HOUR, "gpt-5")])).toEqual({
      action: "skip",
      reason: "model_not_found",
      message: "Provider openai is in cooldown",
    });
    expect(decide([cooldown("model_not_found", HOUR, "gpt-5")], { isPrimary: false }).action).toBe("skip");
  });

  it("R-FB-3: a widened window whose latest reason is another model's model_not_found is probed like a transient one", () => {
    // A sibling's probe failed with model_not_found inside a profile-wide cooldown (R-CD-2 latest reason, R-CD-4
    // widening): the slot is kept, so this model may still be probed — once per run for siblings.
    const widened: UsageStats = { ...cooldown("model_not_found"), failureCounts: { overloaded: 1, model_not_found: 1 } };
    expect(decide([widened], { isPrimary: false })).toEqual({ action: "probe", reason: "model_not_found", transient: true });
    expect(decide([widened])).toEqual({ action: "probe", reason: "model_not_found", transient: true });
    expect(decide([widened], { isPrimary: false, transientProbeUsedThisRun: true }).action).toBe("skip");
    expect(decide([widened, cooldown("model_not_found", HOUR, "gpt-5")]).action).toBe("skip");
  });

  it("R-FB-3: the decision follows the R-RN-5 explaining reason across profiles", () => {
    expect(decide([cooldown("rate_limit"), disabled("auth_permanent")]).action).toBe("skip");
    expect(decide([cooldown("rate_limit"), cooldown("auth")]).action).toBe("skip");
    expect(decide([cooldown("rate_limit"), { ...cooldown("rate_limit"), failureCounts: { rate_limit: 3 } }, cooldown("auth")]).action).toBe(
      "probe",
    );
  });

  it("R-FB-3: the transient reasons are the ones REASON_POLICY marks transient", () => {
    expect([...TRANSIENT].sort()).toEqual(
      ["empty_response", "no_error_details", "overloaded", "rate_limit", "server_error", "timeout", "unclassified"].sort(),
    );
  });

  it("R-FB-3: probe failures with model_not_found, format, auth, auth_permanent or session_expired keep the slot", () => {
    const keeps = FAILOVER_REASONS.filter((r) => REASON_POLICY[r].keepsProbeSlot && REASON_POLICY[r].advanceToNextModel);
    expect([...keeps].sort()).toEqual(["auth", "auth_permanent", "format", "incompatible", "model_not_found", "session_expired"]);
  });
});

describe("last resort (R-FB-9)", () => {
  const NOW = 1_000_000;
  it.each([
    ["a ladder cooldown of a transient reason", { cooldownUntil: NOW + 30_000, cooldownReason: "rate_limit" as const }, NOW + 30_000],
    ["a provider-stated reset", { blockedUntil: NOW + 30_000, blockedReason: "rate_limit" as const }, undefined],
    ["a disable", { disabledUntil: NOW + 30_000, disabledReason: "billing" as const }, undefined],
    ["an auth cooldown", { cooldownUntil: NOW + 30_000, cooldownReason: "auth" as const }, undefined],
    [
      "a model_not_found cooldown",
      { cooldownUntil: NOW + 30_000, cooldownReason: "model_not_found" as const, cooldownModel: "m" },
      undefined,
    ],
    [
      "a ladder cooldown next to a stated reset",
      {
        cooldownUntil: NOW + 30_000,
        cooldownReason: "overloaded" as const,
        blockedUntil: NOW + 10_000,
        blockedReason: "rate_limit" as const,
      },
      undefined,
    ],
  ])("R-FB-9: a profile kept out by %s", (_name, stats, expected) => {
    expect(ladderCooldownRecovery([{ id: "p", stats }], "m", NOW)).toBe(expected);
  });

  it("R-FB-9: the soonest ladder window of the provider's profiles counts", () => {
    const profiles = [
      { id: "a", stats: { cooldownUntil: NOW + 60_000, cooldownReason: "timeout" as const } },
      { id: "b", stats: { cooldownUntil: NOW + 20_000, cooldownReason: "server_error" as const } },
      { id: "c", stats: { disabledUntil: NOW + 5_000, disabledReason: "billing" as const } },
    ];
    expect(ladderCooldownRecovery(profiles, "m", NOW)).toBe(NOW + 20_000);
  });

  it("R-FB-9: the candidate whose window ends soonest is chosen; ties go to the earlier one", () => {
    expect(pickLastResort([{ index: 0, recovery: 50 }, { index: 2, recovery: 20 }, { index: 3 }])).toBe(2);
    expect(
      pickLastResort([
        { index: 1, recovery: 20 },
        { index: 2, recovery: 20 },
      ]),
    ).toBe(1);
    expect(pickLastResort([{ index: 0 }])).toBeUndefined();
  });
});

describe("waiting for a stated reset, then a last resort (R-RA-2, R-FB-9)", () => {
  const NOW = 1_000_000;
  const rateLimitBlock = { blockedUntil: NOW + 1_000, blockedReason: "rate_limit" as const };
  // A stated 1 s that trust-once (R-CD-6) lengthened to the 30 s ladder step.
  const lengthened = { ...rateLimitBlock, cooldownUntil: NOW + 30_000, cooldownReason: "rate_limit" as const };
  it.each([
    ["a live stated block", rateLimitBlock, true, NOW + 1_000],
    ["a stated block that trust-once lengthened with a ladder step", lengthened, true, NOW + 1_000],
    [
      "ladder cooldowns alone (open to a last resort already)",
      { cooldownUntil: NOW + 30_000, cooldownReason: "overloaded" as const },
      true,
      undefined,
    ],
    ["a stated overload block", { blockedUntil: NOW + 2_000, blockedReason: "overloaded" as const }, true, NOW + 2_000],
    [
      "a stated block next to a disable",
      { ...rateLimitBlock, disabledUntil: NOW + 3_600_000, disabledReason: "billing" as const },
      false,
      undefined,
    ],
    [
      "a stated block next to an auth cooldown",
      { ...rateLimitBlock, cooldownUntil: NOW + 60_000, cooldownReason: "auth" as const },
      false,
      undefined,
    ],
    ["a stated billing block", { blockedUntil: NOW + 1_000, blockedReason: "billing" as const }, false, undefined],
    ["nothing (usable)", {}, false, undefined],
  ])("R-RA-2: a profile kept out by %s", (_name, stats, transientOnly, opening) => {
    expect(keptOutOnlyByTransientWindows([{ id: "p", stats }], "m", NOW)).toBe(transientOnly);
    expect(statedResetOpening([{ id: "p", stats }], "m", NOW)).toBe(opening);
  });

  it("R-FB-9: once the stated time of a block trust-once lengthened has passed, what remains is a guess", () => {
    const later = NOW + 1_000;
    expect(statedResetOpening([{ id: "p", stats: lengthened }], "m", later)).toBeUndefined();
    expect(ladderCooldownRecovery([{ id: "p", stats: lengthened }], "m", later)).toBe(NOW + 30_000);
    expect(ladderCooldownRecovery([{ id: "p", stats: lengthened }], "m", NOW)).toBeUndefined();
  });

  it("R-RA-2: the soonest opening of the provider's profiles counts; a block of another model does not", () => {
    const profiles = [
      { id: "a", stats: { blockedUntil: NOW + 3_000, blockedReason: "rate_limit" as const } },
      {
        id: "b",
        stats: {
          blockedUntil: NOW + 2_000,
          blockedReason: "rate_limit" as const,
          cooldownUntil: NOW + 60_000,
          cooldownReason: "rate_limit" as const,
        },
      },
      { id: "c", stats: { blockedUntil: NOW + 500, blockedReason: "rate_limit" as const, blockedModel: "other" } },
    ];
    expect(statedResetOpening(profiles, "m", NOW)).toBe(NOW + 2_000);
  });
});
