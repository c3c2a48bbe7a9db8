import { describe, expect, it } from "vitest";
import { describeGoogleError, describeGoogleErrorObject } from "./read-error.js";

describe("describeGoogleError", () => {
  it.each([
    {
      shape: "UNAVAILABLE overload",
      body: '{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}',
      expected: { message: "The model is overloaded. Please try again later.", code: "UNAVAILABLE" },
    },
    {
      shape: "RetryInfo with fractional seconds",
      body: '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.5s"}]}}',
      expected: {
        message: "Resource has been exhausted (e.g. check quota).",
        code: "RESOURCE_EXHAUSTED",
        hintHeaders: { "retry-after-ms": "1500" },
      },
    },
    {
      shape: "array-wrapped body",
      body: '[{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta","status":"NOT_FOUND"}}]',
      expected: { message: "models/gemini-9 is not found for API version v1beta", code: "NOT_FOUND" },
    },
    { shape: "plain text", body: "Service Unavailable", expected: { message: "Service Unavailable" } },
    { shape: "empty body", body: "", expected: { message: "" } },
  ])("$shape", ({ body, expected }) => {
    expect(describeGoogleError(body)).toEqual(expected);
  });

  it("in-stream errors keep the numeric code as status", () => {
    expect(describeGoogleErrorObject({ code: 500, message: "Internal error encountered.", status: "INTERNAL" })).toEqual({
      message: "Internal error encountered.",
      code: "INTERNAL",
      status: 500,
    });
  });
});
