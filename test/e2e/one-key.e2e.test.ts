/**
 * One key and no fallback is never less available than the provider itself (R-FB-9, R-RA-2, R-RN-6): the same
 * seeded faults and open-loop traffic over loopback HTTP, straight to the mock provider and through a gateway.
 */
import { describe, expect, it } from "vitest";
import { FALLBACK_SCENARIO, ONE_KEY_SCENARIOS, measureDetour, measureDirect, type OneKeyScenario } from "../../bench/one-key-traffic.js";

const TRAFFIC = { ratePerSecond: 10, durationMs: 4_000, clientTimeoutMs: 20_000 };

function scenario(name: string): OneKeyScenario {
  const found = ONE_KEY_SCENARIOS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
}

describe("one key, no fallback, against the provider directly", () => {
  it("R-FB-9: 50 % of calls answered 429 + Retry-After: 1 (seeded): Detour answers at least as many as direct, and most", async () => {
    const faults = scenario("50 % 429 + Retry-After: 1");
    const direct = await measureDirect(faults, TRAFFIC);
    const detour = await measureDetour(faults, TRAFFIC);
    expect(direct.requests).toBe(40);
    expect(direct.upstreamCalls).toBe(direct.requests);
    expect(direct.answered).toBeGreaterThan(direct.requests * 0.3);
    expect(direct.answered).toBeLessThan(direct.requests * 0.7);
    expect(detour.answered).toBeGreaterThanOrEqual(direct.answered);
    // Waiting out the stated second and trying again (R-RN-6, R-RA-2) answers what one call could not.
    expect(detour.answered / detour.requests).toBeGreaterThanOrEqual(0.8);
  }, 60_000);

  it("R-FB-9: 50 % 500s: Detour answers at least as many as direct", async () => {
    const faults = scenario("50 % 500");
    const direct = await measureDirect(faults, TRAFFIC);
    const detour = await measureDetour(faults, TRAFFIC);
    expect(detour.answered).toBeGreaterThanOrEqual(direct.answered);
  }, 60_000);

  it("R-CD-6: with a healthy fallback, a primary that always answers 429 + Retry-After: 1 costs little more than one call per request", async () => {
    const detour = await measureDetour(FALLBACK_SCENARIO, TRAFFIC);
    expect(detour.answered).toBe(detour.requests);
    expect(detour.upstreamCalls / detour.requests).toBeLessThanOrEqual(1.1);
  }, 60_000);
});
