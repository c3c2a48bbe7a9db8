import { describe, expect, it } from "vitest";
import { row, testClassificationRows } from "./__fixtures__/classification-table.js";
import { statusInText, STATUS_IN_TEXT_RULES } from "./status-in-text.js";
import { explainFailure } from "./index.js";

const reads: readonly [string, number, string][] = [
  ["413 Request Entity Too Large", 413, "status-in-text/leading"],
  ["529 Overloaded", 529, "status-in-text/leading"],
  ["Error: 402 Payment Required: add credits", 402, "status-in-text/leading"],
  ["503 service unavailable", 503, "status-in-text/leading"],
  ["502 <!DOCTYPE html><html></html>", 502, "status-in-text/leading"],
  ["HTTP 500: Internal Server Error", 500, "status-in-text/leading"],
  ["Error code: 429 - {'error': {'message': 'Rate limit'}}", 429, "status-in-text/labelled"],
  ["upstream answered with status 503", 503, "status-in-text/labelled"],
  ["request failed, status code: 504", 504, "status-in-text/labelled"],
  ["provider failed (HTTP 500): upstream apiKey is empty", 500, "status-in-text/labelled"],
  ["Google Generative AI API error (400): API key not valid.", 400, "status-in-text/error-parenthesised"],
  ["the upstream returned 402 for this key", 402, "status-in-text/verb"],
  ["request to relay failed: 429 Too Many Requests", 429, "status-in-text/reason-phrase"],
];

const notStatuses = [
  "Rate limit reached for gpt-4o-2024-08-06 in organization org-1 on requests per min (RPM): Limit 500, Used 500, Requested 1.",
  "request id req-4291 failed",
  "400 tokens exceed the limit",
  "500,000 input tokens per minute",
  "model llama-405b is loading",
  "returned 404 records",
  "connect ECONNREFUSED 127.0.0.1:5000",
  "https://api.example.com:443/v1",
  "This model's maximum context length is 4096 tokens",
];

function whichRule(text: string): string | undefined {
  return STATUS_IN_TEXT_RULES.find((rule) => rule.pattern.test(text.slice(0, 600)))?.id;
}

describe("R-EC-3: status read out of the message text", () => {
  for (const [text, status, rule] of reads) {
    it(`R-EC-3: reads ${status} from "${text.slice(0, 60)}" (${rule})`, () => {
      expect(statusInText(text)).toBe(status);
      expect(whichRule(text)).toBe(rule);
    });
  }

  it("R-EC-3: every status-in-text row reads at least one sample", () => {
    const used = new Set(reads.map(([text]) => whichRule(text)));
    expect(STATUS_IN_TEXT_RULES.map((rule) => rule.id).filter((id) => !used.has(id))).toEqual([]);
  });

  for (const text of notStatuses) {
    it(`R-EC-3: a number that is not a status is not read: "${text.slice(0, 60)}"`, () => {
      expect(statusInText(text)).toBeUndefined();
    });
  }

  it("R-EC-3: the adapter's status beats one stated in the text", () => {
    expect(explainFailure({ provider: "openai", status: 401, message: "429 Too Many Requests" })).toMatchObject({
      classification: { reason: "auth", status: 401 },
      ruleId: "status/401-403",
    });
  });

  it("R-EC-3: the status found in the text is reported with the classification", () => {
    expect(explainFailure({ provider: "anthropic", message: "529 Overloaded" }).classification).toMatchObject({
      reason: "overloaded",
      status: 529,
    });
  });
});

describe("R-EC-3: status rules applied to a status found in the text", () => {
  testClassificationRows([
    row(
      "R-EC-3: '529 …' without a status field → overloaded",
      { provider: "anthropic", message: "529 Overloaded" },
      "overloaded",
      "status/529",
    ),
    row(
      "R-EC-3: '402 Payment Required: …' without a status field → billing",
      { provider: "openrouter", message: "402 Payment Required: This request requires more credits" },
      "billing",
      "status/402",
    ),
    row(
      "R-EC-3: 'Error code: 429 - {…}' → rate_limit",
      { provider: "openai", message: "Error code: 429 - {'error': {'message': 'Request too fast'}}" },
      "rate_limit",
      "status/429",
    ),
    row(
      "R-EC-3: 'status 503' → overloaded",
      { provider: "relay", message: "relay got status 503 from upstream" },
      "overloaded",
      "status/503",
    ),
    row(
      "R-EC-3: '403 … run out of credits' is billing, not auth",
      { provider: "xai", message: "403 Forbidden: You have run out of credits" },
      "billing",
      "status/401-403-billing",
    ),
    row(
      "R-EC-3: '401 …' with rate-limit text is auth (status beats message)",
      { provider: "openai", message: "401 Unauthorized: rate limit exceeded for this key" },
      "auth",
      "status/401-403",
    ),
    row(
      "R-EC-3: '500 <html>' page → timeout",
      { provider: "openai", message: "500 <!DOCTYPE html><html><head><title>Oops</title></head></html>" },
      "timeout",
      "status/5xx",
    ),
    row(
      "R-EC-3: a model id with digits is not a status",
      { provider: "openai", message: "gpt-4o-2024-08-06 is busy: at capacity" },
      "overloaded",
      "overloaded/at-capacity",
    ),
  ]);
});
