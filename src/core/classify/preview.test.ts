import { describe, expect, it } from "vitest";
import { classifyFailure } from "./index.js";
import { buildPreview, PREVIEW_MAX_CHARS, redactSecrets } from "./preview.js";

const previewOf = (message: string, status?: number): string =>
  classifyFailure({ provider: "openai", message, ...(status === undefined ? {} : { status }) }).preview;

describe("R-EC-1 secret-free preview", () => {
  const secrets: readonly [string, string, string][] = [
    ["OpenAI project key", "Incorrect API key provided: sk-proj-AbCdEf1234567890GhIjKl.", "sk-proj-AbCdEf1234567890GhIjKl"],
    ["Anthropic key", "invalid key sk-ant-api03-AbCdEfGhIjKlMnOp-1234567890_xyz given", "sk-ant-api03-AbCdEfGhIjKlMnOp-1234567890_xyz"],
    ["OpenRouter key", "key sk-or-v1-0123456789abcdef0123456789abcdef is disabled", "sk-or-v1-0123456789abcdef0123456789abcdef"],
    ["Bearer token", "Authorization failed for Bearer eyJhbGciOiJIUzI1NiJ9.payload12345.signature123", "eyJhbGciOiJIUzI1NiJ9"],
    [
      "Google key in a query",
      "POST https://generativelanguage.googleapis.com/v1beta/models/x:generateContent?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KLMNOPQRSTUVW failed",
      "AIzaSyA1b2C3d4E5f6G7h8I9j0KLMNOPQRSTUVW",
    ],
    ["xAI key", "bad key xai-AbCdEfGhIjKlMnOpQrStUvWx123", "xai-AbCdEfGhIjKlMnOpQrStUvWx123"],
    ["Groq key", "bad key gsk_AbCdEfGhIjKlMnOpQrStUvWx123", "gsk_AbCdEfGhIjKlMnOpQrStUvWx123"],
    ["AWS access key id", "The security token AKIAIOSFODNN7EXAMPLE is invalid", "AKIAIOSFODNN7EXAMPLE"],
    ["api_key=value", "request failed: api_key=supersecretvalue123&model=gpt", "supersecretvalue123"],
    ["JSON token field", '{"error":"bad","token":"tok_9f8e7d6c5b4a"}', "tok_9f8e7d6c5b4a"],
    ["long hex token", "session 0123456789abcdef0123456789abcdef0123 rejected", "0123456789abcdef0123456789abcdef0123"],
    [
      "long base64 token",
      "credential dGhpcyBpcyBhIHZlcnkgbG9uZyBzZWNyZXQgdG9rZW4gMTIzNDU2Nzg5MA== rejected",
      "dGhpcyBpcyBhIHZlcnkgbG9uZyBzZWNyZXQgdG9rZW4gMTIzNDU2Nzg5MA",
    ],
  ];

  for (const [name, message, secret] of secrets) {
    it(`R-EC-1: the preview redacts a ${name}`, () => {
      const preview = previewOf(message, 401);
      expect(preview).not.toContain(secret);
      expect(preview).toContain("[redacted]");
    });
  }

  it("R-EC-1: redaction keeps a recognisable prefix and the surrounding words", () => {
    expect(redactSecrets("Incorrect API key provided: sk-proj-AbCdEf1234567890GhIjKl. See docs")).toBe(
      "Incorrect API key provided: sk-[redacted]. See docs",
    );
    expect(redactSecrets("use sk-ant-api03-AbCdEfGhIjKl")).toBe("use sk-ant-[redacted]");
  });

  it("R-EC-1: ordinary words, model ids and URLs survive redaction", () => {
    const text = "The model `claude-3-5-sonnet-20241022` is overloaded, see https://docs.anthropic.com/en/api/errors for details";
    expect(redactSecrets(text)).toBe(text);
  });

  it("R-EC-1: whitespace and control characters collapse into one line", () => {
    expect(previewOf("Rate\n\n  limit\t\treached\u0000 now")).toBe("Rate limit reached now");
  });

  it("R-EC-1: the preview is at most 200 characters and says it was cut", () => {
    const preview = previewOf(`Rate limit reached. ${"details ".repeat(100)}`);
    expect(preview.length).toBeLessThanOrEqual(PREVIEW_MAX_CHARS);
    expect(preview.endsWith("…")).toBe(true);
  });

  it("R-EC-1: a secret cut in half by the length limit still does not leak", () => {
    const message = `${"x ".repeat(95)}sk-proj-AbCdEf1234567890GhIjKlMnOp`;
    expect(previewOf(message)).not.toMatch(/sk-proj-AbCd/);
  });

  it("R-EC-1: an HTML error page is summarised by its title", () => {
    const page =
      "<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>cloudflare</center></body>\n</html>";
    expect(previewOf(page, 502)).toBe("HTML error page: 502 Bad Gateway");
  });

  it("R-EC-1: an HTML page without a title falls back to its heading, with entities decoded", () => {
    expect(previewOf("<html><body><h1>Service &amp; Gateway Error</h1></body></html>", 500)).toBe(
      "HTML error page: Service & Gateway Error",
    );
    expect(previewOf("<html><body><p>nothing</p></body></html>", 500)).toBe("HTML error page");
  });

  it("R-EC-2: an unclassified failure keeps its raw text as the preview", () => {
    expect(previewOf("The frobnicator declined politely")).toBe("The frobnicator declined politely");
  });

  it("R-EC-1: an empty failure has an empty preview", () => {
    expect(buildPreview("", undefined)).toBe("");
  });
});
