/**
 * R-TT-2: a provider that cannot be reached at all (its name does not resolve, nothing listens, TLS cannot be
 * set up) fails its attempt at once: no same-profile retry, no wait for its cooldown — before the run moves
 * on, and in the runs that follow while its cooldown lasts.
 */
import { describe, expect, it } from "vitest";
import { networkError, success } from "../../src/testing/scripted-provider.js";
import { FALLBACK, PRIMARY, apiKey, failed, makeHarness, succeeded } from "./harness.js";

const ONE_KEY = { "openai:a": apiKey("openai", "sk-test-a") };
const NO_FALLBACK = { agents: { defaults: { model: { primary: PRIMARY, fallbacks: [] } } } };

describe("unreachable is not slow", () => {
  it.each([["ENOTFOUND"], ["EAI_AGAIN"], ["ECONNREFUSED"], ["CERT_HAS_EXPIRED"], ["ERR_TLS_CERT_ALTNAME_INVALID"]])(
    "R-TT-2 one key, no fallback, %s: the error comes at once, with one upstream call, and again on the next request",
    async (code) => {
      const h = await makeHarness({ profiles: ONE_KEY, config: NO_FALLBACK });
      h.provider("openai").always({}, networkError(code, `connect ${code} api.example.invalid`));
      for (const round of [1, 2, 3]) {
        const started = h.clock.now();
        const error = failed(await h.runToEnd());
        expect((error as Error).message, `round ${round}`).toContain(code);
        expect(h.clock.now() - started, `round ${round} waited`).toBeLessThan(1_000);
      }
      // Each request tried the host once (the last-resort attempt of a run kept out by the cooldown).
      expect(h.provider("openai").calls.length).toBeLessThanOrEqual(3);
      expect(h.eventsOf("timeout_retry_scheduled")).toHaveLength(0);
      expect(h.eventsOf("cooldown_wait")).toHaveLength(0);
    },
  );

  it("R-TT-2 an unreachable primary hands over to the fallback without a same-profile retry", async () => {
    const h = await makeHarness({ profiles: { ...ONE_KEY, "anthropic:a": apiKey("anthropic", "sk-ant") } });
    h.provider("openai").always({}, networkError("ENOTFOUND"));
    h.provider("anthropic").always({}, success("from the fallback"));
    const started = h.clock.now();
    const out = succeeded(await h.runToEnd());
    expect(`${out.provider}/${out.model}`).toBe(FALLBACK);
    expect(h.clock.now() - started).toBeLessThan(1_000);
    expect(h.provider("openai").calls).toHaveLength(1);
  });

  it("R-TT-2 a timeout that is not unreachable keeps the same-profile retry gate", async () => {
    const h = await makeHarness({ profiles: ONE_KEY, config: NO_FALLBACK });
    h.provider("openai").script({}, networkError("ETIMEDOUT"), success("second try"));
    succeeded(await h.runToEnd());
    expect(h.eventsOf("timeout_retry_scheduled")).toHaveLength(1);
  });
});
