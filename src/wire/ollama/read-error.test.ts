import { describe, expect, it } from "vitest";
import { describeOllamaError } from "./read-error.js";

describe("describeOllamaError", () => {
  it.each([
    {
      shape: "error string",
      body: '{"error":"model requires more system memory (12.0 GiB) than is available (8.0 GiB)"}',
      expected: { message: "model requires more system memory (12.0 GiB) than is available (8.0 GiB)" },
    },
    {
      shape: "context overflow",
      body: '{"error":"ollama error: context length exceeded"}',
      expected: { message: "ollama error: context length exceeded" },
    },
    { shape: "other JSON keeps raw text", body: '{"status":"bad"}', expected: { message: '{"status":"bad"}' } },
    { shape: "plain text", body: "404 page not found", expected: { message: "404 page not found" } },
    { shape: "empty body", body: "", expected: { message: "" } },
  ])("$shape", ({ body, expected }) => {
    expect(describeOllamaError(body)).toEqual(expected);
  });
});
