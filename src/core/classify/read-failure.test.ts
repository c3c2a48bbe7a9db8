import { describe, expect, it } from "vitest";
import type { FailureInput } from "../types.js";
import { extractErrorBody } from "./error-body.js";
import { classifyFailure } from "./index.js";
import { MAX_MATCH_CHARS, readFailure } from "./read-failure.js";

const odd = (value: unknown): FailureInput => value as FailureInput;

describe("R-EC-1 error bodies passed raw by an adapter", () => {
  it("R-EC-1: reads an OpenAI body (message, type, code)", () => {
    expect(
      extractErrorBody('{"error":{"message":"Invalid API Key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}'),
    ).toMatchObject({
      message: "Invalid API Key",
      type: "invalid_request_error",
      code: "invalid_api_key",
    });
  });

  it("R-EC-1: reads an Anthropic body behind an SDK status prefix", () => {
    expect(
      extractErrorBody('429 {"type":"error","error":{"type":"rate_limit_error","message":"Slow down"},"request_id":"req_011"}'),
    ).toMatchObject({
      message: "Slow down",
      type: "rate_limit_error",
    });
  });

  it("R-EC-1: reads a Google body (numeric code is the HTTP status, status is the code, detail reasons)", () => {
    expect(
      extractErrorBody(
        '{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}',
      ),
    ).toMatchObject({ message: "API key not valid.", httpStatus: 400, status: "INVALID_ARGUMENT", reasons: ["API_KEY_INVALID"] });
  });

  it("R-EC-1: reads a Google streaming array body", () => {
    expect(extractErrorBody('[{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}]')).toMatchObject({
      httpStatus: 503,
      status: "UNAVAILABLE",
    });
  });

  it("R-EC-1: reads an OpenRouter body and its nested upstream raw error", () => {
    const body = extractErrorBody(
      '{"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"{\\"error\\":{\\"message\\":\\"Resource exhausted\\",\\"status\\":\\"RESOURCE_EXHAUSTED\\"}}","provider_name":"Google"}}}',
    );
    expect(body).toMatchObject({ message: "Provider returned error", httpStatus: 429, reasons: ["RESOURCE_EXHAUSTED"] });
    expect(body?.upstream).toContain("Resource exhausted");
  });

  it("R-EC-1: reads xAI and Ollama bodies where `error` is a string", () => {
    expect(
      extractErrorBody('{"code":"Some resource has been exhausted","error":"Your team has used all available credits."}'),
    ).toMatchObject({
      message: "Your team has used all available credits.",
      code: "Some resource has been exhausted",
    });
    expect(extractErrorBody('{"error":"model \\"llama3\\" not found, try pulling it first"}')).toMatchObject({
      message: 'model "llama3" not found, try pulling it first',
    });
  });

  it("R-EC-1: text that is not JSON yields no body", () => {
    expect(extractErrorBody("Error code: 400 - {'error': {'message': 'python repr'}}")).toBeUndefined();
    expect(extractErrorBody("no braces at all")).toBeUndefined();
    expect(extractErrorBody('{"truncated": ')).toBeUndefined();
  });

  it("R-EC-1: a parsed body object passed as the message is read like a raw body", () => {
    const result = classifyFailure(
      odd({ provider: "anthropic", message: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } }),
    );
    expect(result.reason).toBe("overloaded");
  });
});

describe("R-EC-1 input tolerance", () => {
  it("R-EC-1: a status given as a string is used", () => {
    expect(readFailure({ status: " 503 " as unknown as number }).status).toBe(503);
    expect(classifyFailure(odd({ status: "401", message: "nope" })).reason).toBe("auth");
  });

  it("R-EC-1: nonsense statuses are ignored", () => {
    for (const status of [NaN, Infinity, -1, 42, 4290, 429.5, "abc", {}, null]) expect(readFailure(odd({ status })).status).toBeUndefined();
  });

  it("R-EC-1: a number, boolean or Error as the message is turned into text", () => {
    expect(readFailure(odd({ message: 429 })).text).toBe("429");
    expect(readFailure(odd({ message: new Error("socket hang up") })).text).toBe("socket hang up");
    expect(classifyFailure(odd({ message: new Error("socket hang up") })).reason).toBe("timeout");
  });

  it("R-EC-1: a circular object or a throwing getter does not throw", () => {
    const circular: Record<string, unknown> = { message: "x" };
    circular["self"] = circular;
    expect(classifyFailure(odd({ message: circular })).reason).toBe("empty_response");
    const hostile = Object.defineProperty({}, "message", {
      get() {
        throw new Error("boom");
      },
    });
    expect(classifyFailure(odd(hostile)).reason).toBe("empty_response");
  });

  it("R-EC-1: a non-object input is classified as empty", () => {
    for (const input of [undefined, null, 42, "rate limit", [], () => 1]) expect(classifyFailure(odd(input)).reason).toBe("empty_response");
  });

  it("R-EC-1: provider ids are matched case-insensitively", () => {
    expect(classifyFailure(odd({ provider: " OpenRouter ", message: "Provider returned error" })).reason).toBe("timeout");
  });

  it("R-EC-1: only the first 16 KiB of a message is matched", () => {
    const message = `${"a".repeat(MAX_MATCH_CHARS)} rate limit`;
    expect(readFailure({ message }).text.length).toBe(MAX_MATCH_CHARS);
    expect(classifyFailure({ message }).reason).toBe("unclassified");
  });

  it("R-EC-1: a multi-megabyte adversarial message is classified quickly", () => {
    const started = performance.now();
    const inputs = [
      "model ".repeat(800_000),
      "a".repeat(5_000_000),
      `{"error":{"message":"${"x".repeat(3_000_000)}"}}`,
      "try again in 1 1 1 1 ".repeat(300_000),
      "<html>".repeat(500_000),
      "sk-".repeat(1_000_000),
    ];
    for (const message of inputs) expect(classifyFailure({ message, status: 400 }).reason).toBeTypeOf("string");
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
