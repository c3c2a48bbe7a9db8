import { describe, expect, it } from "vitest";
import { describeOpenAiError, describeOpenAiErrorObject } from "./read-error.js";

describe("describeOpenAiError", () => {
  it.each([
    {
      shape: "OpenAI error object",
      body: '{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}',
      expected: { message: "You exceeded your current quota", code: "insufficient_quota", errorType: "insufficient_quota" },
    },
    {
      shape: "OpenRouter numeric code (status comes from the response, not the body)",
      body: '{"error":{"code":402,"message":"Insufficient credits. Add more using https://openrouter.ai/settings/credits"}}',
      expected: { message: "Insufficient credits. Add more using https://openrouter.ai/settings/credits" },
    },
    {
      shape: "OpenRouter metadata.raw appended",
      body: '{"error":{"code":502,"message":"Provider returned error","metadata":{"raw":"upstream overloaded","provider_name":"Groq"}}}',
      expected: { message: "Provider returned error (upstream overloaded)" },
    },
    {
      shape: "error as a string",
      body: '{"error":"model \\"foo\\" not found, try pulling it first"}',
      expected: { message: 'model "foo" not found, try pulling it first' },
    },
    {
      shape: "top-level message",
      body: '{"message":"context length exceeded","object":"error"}',
      expected: { message: "context length exceeded" },
    },
    { shape: "FastAPI detail", body: '{"detail":"Not Found"}', expected: { message: "Not Found" } },
    {
      shape: "plain text",
      body: "upstream connect error or disconnect/reset before headers\n",
      expected: { message: "upstream connect error or disconnect/reset before headers" },
    },
    { shape: "empty body", body: "", expected: { message: "" } },
  ])("$shape", ({ body, expected }) => {
    expect(describeOpenAiError(body)).toEqual(expected);
  });
});

describe("describeOpenAiErrorObject (in-stream)", () => {
  it.each([
    {
      shape: "numeric code becomes the status",
      error: { code: 503, message: "No instances available" },
      expected: { message: "No instances available", status: 503 },
    },
    {
      shape: "string code stays a code",
      error: { code: "server_error", message: "Provider disconnected" },
      expected: { message: "Provider disconnected", code: "server_error" },
    },
    { shape: "numeric code outside HTTP range is dropped", error: { code: 1, message: "odd" }, expected: { message: "odd" } },
  ])("$shape", ({ error, expected }) => {
    expect(describeOpenAiErrorObject(error)).toEqual(expected);
  });
});
