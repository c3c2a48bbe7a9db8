/** The gateway's one access line per request at info, and no per-request decision lines at info. */
import { describe, expect, it } from "vitest";
import type { LogLevel } from "../../src/ports/events.js";
import { CLIENT_TOKEN, KEYS, harnessClosedAfterEachTest } from "./fixtures/gateway-harness.js";

const start = harnessClosedAfterEachTest();

describe("gateway access log", () => {
  it("a healthy request logs one http_request line at info (method, path, status, model, attempts, duration) and its decision at debug", async () => {
    const lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
    const harness = await start({
      logger: {
        log: (level, message, fields) => lines.push({ level, message, ...(fields ? { fields } : {}) }),
        isLevelEnabled: (level) => level !== "debug",
      },
    });
    await harness.openai.chat.completions.create({ model: "openai/mock-gpt", messages: [{ role: "user", content: "hi" }] });
    const perRequest = lines.filter(
      (line) => line.fields?.event !== undefined && line.message !== "Detour gateway listening on " + harness.gateway.url,
    );
    expect(perRequest.map((line) => line.fields?.event)).toEqual(["http_request"]);
    expect(perRequest[0]).toMatchObject({
      level: "info",
      fields: { method: "POST", path: "/v1/chat/completions", status: 200, model: "openai/mock-gpt", attempts: 1 },
    });
    expect(typeof perRequest[0]?.fields?.durationMs).toBe("number");
  });

  function recorder() {
    const lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
    const logger = {
      log: (level: LogLevel, message: string, fields?: Record<string, unknown>) =>
        lines.push({ level, message, ...(fields ? { fields } : {}) }),
      isLevelEnabled: (level: LogLevel) => level !== "debug",
    };
    return { lines, logger, access: () => lines.filter((line) => line.fields?.event === "http_request") };
  }

  it("the access line counts attempts as x-detour-attempts does: a key rotation is two", async () => {
    const log = recorder();
    const harness = await start({
      logger: log.logger,
      scenario: [{ match: { key: KEYS.openaiA }, steps: ["rate-limit"], then: "repeat-last" }],
    });
    const response = await fetch(`${harness.gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${CLIENT_TOKEN}` },
      body: JSON.stringify({ model: "openai/mock-gpt", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-detour-attempts")).toBe("2");
    expect(log.access()[0]?.fields).toMatchObject({ status: 200, attempts: 2 });
  });

  it("the access line of a failed run counts the attempts its error body lists", async () => {
    const log = recorder();
    const harness = await start({ logger: log.logger, scenario: [{ steps: ["rate-limit"], then: "repeat-last" }] });
    const response = await fetch(`${harness.gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${CLIENT_TOKEN}` },
      body: JSON.stringify({ model: "openai/mock-gpt", messages: [{ role: "user", content: "hi" }] }),
    });
    const body = (await response.json()) as { error: { attempts: unknown[] } };
    expect(body.error.attempts.length).toBeGreaterThan(0);
    expect(log.access()[0]?.fields).toMatchObject({ status: response.status, attempts: body.error.attempts.length });
  });
});
