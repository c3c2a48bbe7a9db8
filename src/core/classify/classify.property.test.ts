import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { isFailoverReason } from "../reasons.js";
import type { FailureInput } from "../types.js";
import { classifyFailure } from "./index.js";
import { PREVIEW_MAX_CHARS } from "./preview.js";

const anyInput = fc.anything({
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withNullPrototype: true,
  withSparseArray: true,
});

const plausibleInput = fc.record(
  {
    provider: fc.oneof(fc.constantFrom("openai", "anthropic", "google", "openrouter", "ollama", "groq", "xai", "bedrock"), fc.anything()),
    status: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constantFrom("429", "abc", " 503 "), fc.anything()),
    code: fc.oneof(fc.constantFrom("ECONNRESET", "RESOURCE_EXHAUSTED", "AbortError", "context_length_exceeded"), fc.anything()),
    errorType: fc.oneof(fc.string(), fc.anything()),
    message: fc.oneof(
      fc.string({ maxLength: 2000 }),
      fc.json(),
      fc.anything(),
      fc.constantFrom("", "Unknown error (no error details in response)"),
    ),
    headers: fc.oneof(
      fc.dictionary(
        fc.constantFrom("retry-after", "Retry-After-Ms", "x-ratelimit-reset-tokens", "anthropic-ratelimit-tokens-reset"),
        fc.oneof(fc.string(), fc.array(fc.string())),
      ),
      fc.anything(),
    ),
    now: fc.oneof(fc.integer(), fc.double(), fc.anything()),
    aborted: fc.oneof(fc.boolean(), fc.anything()),
  },
  { requiredKeys: [] },
);

function expectValid(input: unknown): void {
  const result = classifyFailure(input as FailureInput);
  expect(isFailoverReason(result.reason)).toBe(true);
  expect(typeof result.preview).toBe("string");
  expect(result.preview.length).toBeLessThanOrEqual(PREVIEW_MAX_CHARS);
  if (result.resetAt !== undefined) expect(Number.isFinite(result.resetAt)).toBe(true);
  if (result.retryAfterMs !== undefined) expect(result.retryAfterMs).toBeGreaterThanOrEqual(0);
}

describe("R-EC-1 classification never throws", () => {
  test.prop([anyInput], { numRuns: 400 })(
    "R-EC-1: classifyFailure never throws and returns a valid FailoverReason for fc.anything()",
    (input) => {
      expectValid(input);
    },
  );

  test.prop([plausibleInput], { numRuns: 400 })("R-EC-1: classifyFailure is total over every mix of field types", (input) => {
    expectValid(input);
  });

  test.prop(
    [
      fc.string({ minLength: 0, maxLength: 64 }),
      fc.integer({ min: 50_000, max: 1_000_000 }),
      fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
    ],
    { numRuns: 15 },
  )("R-EC-1: huge repetitive messages are classified without error", (chunk, length, status) => {
    const message = chunk.length === 0 ? "" : chunk.repeat(Math.ceil(length / chunk.length));
    expectValid(status === undefined ? { message } : { message, status });
  });

  test.prop([fc.anything(), fc.anything()], { numRuns: 200 })(
    "R-EC-1: the same input always gives the same classification",
    (message, status) => {
      const input = { provider: "openai", message, status } as FailureInput;
      expect(classifyFailure(input)).toEqual(classifyFailure(input));
    },
  );
});
