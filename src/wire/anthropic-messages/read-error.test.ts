import { describe, expect, it } from "vitest";
import { ANTHROPIC_ERROR_TYPE_STATUS, describeAnthropicError, describeAnthropicStreamError } from "./read-error.js";

describe("describeAnthropicError", () => {
  it.each([
    {
      shape: "documented error body",
      body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"}',
      expected: { message: "invalid x-api-key", errorType: "authentication_error" },
    },
    {
      shape: "billing error",
      body: '{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}}',
      expected: { message: "Your credit balance is too low to access the Anthropic API.", errorType: "invalid_request_error" },
    },
    { shape: "non-Anthropic JSON keeps the raw text", body: '{"detail":"bad gateway"}', expected: { message: '{"detail":"bad gateway"}' } },
    { shape: "plain text", body: "upstream request timeout", expected: { message: "upstream request timeout" } },
    { shape: "empty body", body: "", expected: { message: "" } },
  ])("$shape", ({ body, expected }) => {
    expect(describeAnthropicError(body)).toEqual(expected);
  });
});

describe("describeAnthropicStreamError: documented HTTP-equivalent status per error type", () => {
  it.each(Object.entries(ANTHROPIC_ERROR_TYPE_STATUS))("%s → %i", (type, status) => {
    expect(describeAnthropicStreamError({ type, message: "m" })).toEqual({ message: "m", errorType: type, status });
  });

  it("an unknown error type carries no status", () => {
    expect(describeAnthropicStreamError({ type: "brand_new_error", message: "?" })).toEqual({ message: "?", errorType: "brand_new_error" });
  });
});
