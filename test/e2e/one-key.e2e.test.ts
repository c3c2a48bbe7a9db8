/**
 * One key and no fallback is never less available than the provider itself (R-FB-9, R-RA-2, R-RN-6): the same
 * seeded faults and open-loop traffic over loopback HTTP, straight to the mock provider and through a gateway.
 */
import { describe, expect, it } from "vitest";
import { FALLBACK_SCENARIO, ONE_KEY_SCENARIOS, measureDetour, measureDirect } from "../../bench/one-key-traffic.js";

const TRAFFIC = { ratePerSecond: 10, durationMs: 4_000, clientTimeoutMs: 20_000 };

/**
 * Where Detour must do better than one call: waiting out the stated second and trying again (R-RN-6, R-RA-2)
 * answers what one call could not (the direct client answers about half).
 */
const ANSWERED_AT_LEAST: Readonly<Record<string, number>> = { "50 % 429 + Retry-After: 1": 0.8 };

describe("one key, no fallback, against the provider directly", () => {
  for (const faults of ONE_KEY_SCENARIOS) {
    it(`R-FB-9: ${faults.name} (seeded): Detour answers at least as many as direct`, async () => {
      const direct = await measureDirect(faults, TRAFFIC);
      const detour = await measureDetour(faults, TRAFFIC);
      expect(direct.upstreamCalls).toBe(direct.requests);
      expect(direct.answered).toBeGreaterThan(direct.requests * 0.3);
      expect(direct.answered).toBeLessThan(direct.requests * 0.7);
      expect(detour.answered).toBeGreaterThanOrEqual(direct.answered);
      expect(detour.answered / detour.requests).toBeGreaterThanOrEqual(ANSWERED_AT_LEAST[faults.name] ?? 0);
      // Never fewer upstream calls than the direct client: guesses do not stand between a request and the provider.
      expect(detour.upstreamCalls).toBeGreaterThanOrEqual(detour.requests);
    }, 60_000);
  }

  it("R-CD-6: with a healthy fallback, a primary that always answers 429 + Retry-After: 1 costs little more than one call per request", async () => {
    const detour = await measureDetour(FALLBACK_SCENARIO, TRAFFIC);
    expect(detour.answered).toBe(detour.requests);
    expect(detour.upstreamCalls / detour.requests).toBeLessThanOrEqual(1.1);
  }, 60_000);
});
