import { describe, expect, it } from "vitest";
import { SkipCache, clampSkipCacheTtlMs, skipCacheMessage } from "./skip-cache.js";

const ref = { provider: "anthropic", model: "claude-sonnet-4-6" };

describe("skip cache", () => {
  it.each([
    [undefined, undefined],
    [0, undefined],
    [-1, undefined],
    [1.5, undefined],
    [Number.NaN, undefined],
    [5, 1_000],
    [1_000, 1_000],
    [60_000, 60_000],
    [600_000, 600_000],
    [9_999_999, 600_000],
  ])("R-FB-2: TTL %s is used as %s", (input, expected) => {
    expect(clampSkipCacheTtlMs(input)).toBe(expected);
  });

  it("R-FB-2: a marker lives for the TTL, per session, and is off without a TTL", () => {
    const cache = new SkipCache(2_000);
    cache.mark("s1", ref, "auth", 1_000);
    expect(cache.liveReason("s1", ref, 2_999)).toBe("auth");
    expect(cache.liveReason("s2", ref, 2_999)).toBeUndefined();
    expect(cache.liveReason(undefined, ref, 2_999)).toBeUndefined();
    expect(cache.liveReason("s1", ref, 3_000)).toBeUndefined();

    const off = new SkipCache(undefined);
    off.mark("s1", ref, "auth", 0);
    expect(off.enabled).toBe(false);
    expect(off.liveReason("s1", ref, 1)).toBeUndefined();
  });

  it("R-FB-2: the attempt text of a skipped candidate", () => {
    expect(skipCacheMessage(ref, "auth_permanent")).toBe(
      "Skipping anthropic/claude-sonnet-4-6: recent auth_permanent failure in this session",
    );
  });
});
