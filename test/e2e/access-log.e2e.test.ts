/** The gateway's one access line per request at info, and no per-request decision lines at info. */
import { afterEach, describe, expect, it } from "vitest";
import type { LogLevel } from "../../src/ports/events.js";
import { startHarness, type Harness } from "./fixtures/gateway-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("gateway access log", () => {
  it("a healthy request logs one http_request line at info (method, path, status, model, attempts, duration) and its decision at debug", async () => {
    const lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
    harness = await startHarness({
      logger: {
        log: (level, message, fields) => lines.push({ level, message, ...(fields ? { fields } : {}) }),
        isLevelEnabled: (level) => level !== "debug",
      },
    });
    await harness.openai.chat.completions.create({ model: "openai/mock-gpt", messages: [{ role: "user", content: "hi" }] });
    const perRequest = lines.filter((line) => line.fields?.event !== undefined && line.message !== "Detour gateway listening on " + harness!.gateway.url);
    expect(perRequest.map((line) => line.fields?.event)).toEqual(["http_request"]);
    expect(perRequest[0]).toMatchObject({
      level: "info",
      fields: { method: "POST", path: "/v1/chat/completions", status: 200, model: "openai/mock-gpt", attempts: 1 },
    });
    expect(typeof perRequest[0]?.fields?.durationMs).toBe("number");
  });
});
