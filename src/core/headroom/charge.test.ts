import { describe, expect, it } from "vitest";
import type { HeadroomReading } from "./reading.js";
import { chargeUnreportedRequest } from "./charge.js";

const NOW = 1_000_000;
const reading = (window: string, extra: Partial<HeadroomReading> = {}): HeadroomReading => ({
  window,
  family: "openai",
  limit: 100,
  remaining: 50,
  remainingShare: 0.5,
  resetAt: NOW + 60_000,
  readAt: NOW - 5_000,
  ...extra,
});

describe("charging a hedge loser to headroom", () => {
  it("R-HG-1: a loser closed before its answer costs one request and its estimated input tokens of the windows read before it was sent", () => {
    const charged = chargeUnreportedRequest(
      [reading("requests"), reading("input-tokens", { limit: 10_000, remaining: 4_000, remainingShare: 0.4 }), reading("output-tokens")],
      { model: "gpt-5", inputTokens: 1_000, sentAt: NOW - 1_000 },
      NOW,
    );
    expect(charged).toEqual([
      expect.objectContaining({ window: "requests", remaining: 49, remainingShare: 0.49, readAt: NOW }),
      expect.objectContaining({ window: "input-tokens", remaining: 3_000, remainingShare: 0.3, readAt: NOW }),
    ]);
  });

  it("R-HG-1: a reading taken after the loser was sent already counts it, and another model's reading is not its", () => {
    const charged = chargeUnreportedRequest(
      [reading("requests", { readAt: NOW - 500 }), reading("tokens", { model: "gpt-4o" }), reading("requests", { resetAt: NOW - 1 })],
      { model: "gpt-5", inputTokens: 10, sentAt: NOW - 1_000 },
      NOW,
    );
    expect(charged).toEqual([]);
  });

  it("R-HG-1: the charge never takes a window below nothing left", () => {
    const [charged] = chargeUnreportedRequest([reading("tokens", { remaining: 5 })], { model: "gpt-5", inputTokens: 50, sentAt: NOW }, NOW);
    expect(charged).toMatchObject({ remaining: 0, remainingShare: 0 });
  });
});
