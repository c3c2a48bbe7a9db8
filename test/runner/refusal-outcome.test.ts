/**
 * R-GW-11 in the runner: an attempt that resolves with a refusal (it calls `context.refused()`) returns its
 * answer, but the run is a content_filter outcome — it stops there (R-FB-5), nothing is recorded on the
 * profile (R-CD-5), and no success clears the profile's failures.
 */
import { describe, expect, it } from "vitest";
import type { AttemptContext } from "../../src/runner/attempt.js";
import { makeHarness, succeeded } from "./harness.js";

const EARLIER_FAILURES = { errorCount: 2, failureCounts: { timeout: 2 }, lastFailureAt: 1_000 };

describe("R-GW-11 a refusal that arrives as an answer", () => {
  it("R-GW-11: the answer is returned, the run is content_filter, no fallback, and the profile's failures stay", async () => {
    const h = await makeHarness();
    await h.store.replaceUsageStats("openai:a", EARLIER_FAILURES);
    await h.store.replaceUsageStats("openai:b", EARLIER_FAILURES);
    const attempt = async (context: AttemptContext) => {
      const answer = await h.attempt(context);
      context.refused?.();
      return answer;
    };
    const out = succeeded(await h.drive(h.detour.runWith({ attempt })));
    expect(out.refused).toBe(true);
    expect(out.provider).toBe("openai");
    expect(h.provider("anthropic").calls).toHaveLength(0);
    expect(h.provider("openai").calls).toHaveLength(1);

    const answered = out.profileId as string;
    expect(await h.store.getUsageStats(answered)).toMatchObject({ errorCount: 2, failureCounts: { timeout: 2 } });
    expect(h.eventsOf("attempt_finished")).toEqual([expect.objectContaining({ outcome: "failed", reason: "content_filter", status: 200 })]);
    expect(h.eventsOf("run_finished")).toEqual([expect.objectContaining({ outcome: "content_filter", provider: "openai" })]);
    expect(h.eventsOf("profile_failure_recorded")).toEqual([]);
  });

  it("R-GW-11: the same answer without a refusal is a success that clears the failures", async () => {
    const h = await makeHarness();
    await h.store.replaceUsageStats("openai:a", EARLIER_FAILURES);
    await h.store.replaceUsageStats("openai:b", EARLIER_FAILURES);
    const out = succeeded(await h.drive(h.detour.runWith({ attempt: h.attempt })));
    expect(out.refused).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await h.store.getUsageStats(out.profileId as string))?.errorCount ?? 0).toBe(0);
    expect(h.eventsOf("run_finished")).toEqual([expect.objectContaining({ outcome: "succeeded" })]);
  });
});
