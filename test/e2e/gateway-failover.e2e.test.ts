/**
 * Failover seen through real SDK clients: profile rotation on a 429, a fallback to another provider's wire
 * in both directions, the notice header on exactly the switching and the clearing response, and the
 * exhaustion answer with Retry-After (R-GW-2, R-GW-4, R-NT-2, R-RA-2).
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { decodeNoticeHeader } from "../../src/core/notices.js";
import { fingerprintKey } from "../../src/testing/mock-provider/index.js";
import { readChatStream } from "./fixtures/read-streams.js";
import { harnessClosedAfterEachTest, KEYS } from "./fixtures/gateway-harness.js";

const start = harnessClosedAfterEachTest();

const ask = (text: string) => ({ model: "detour", messages: [{ role: "user" as const, content: text }] });

describe("failover through the gateway", () => {
  it("R-GW-2: a 429 on the first profile is answered by the second profile of the same provider", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { key: KEYS.openaiA }, steps: ["rate-limit"], then: "repeat-last" }],
    });
    const { data, response } = await openai.chat.completions.create(ask("hi")).withResponse();
    expect(data.choices[0]?.message.content).toContain(fingerprintKey(KEYS.openaiB));
    expect(data.model).toBe("openai/mock-gpt");
    expect(response.headers.get("x-detour-notice")).toBeNull();
    expect(mock.counts().byKey[KEYS.openaiA]).toBe(1);
    expect(mock.counts().byKey[KEYS.openaiB]).toBe(1);
  });

  it("R-GW-2: an exhausted OpenAI provider is answered by an Anthropic model for the OpenAI client, streamed", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { api: "openai" }, steps: ["overloaded"], then: "repeat-last" }],
    });
    const { data: stream, response } = await openai.chat.completions.create({ ...ask("hi"), stream: true }).withResponse();
    const { text, model } = await readChatStream(stream);
    expect(text).toContain("Hello from mock-claude");
    expect(model).toBe("anthropic/mock-claude");
    expect(mock.counts().byModel["mock-claude"]).toBe(1);
    // Both OpenAI profiles were tried before the switch, and the streamed answer carries the notice header.
    expect(mock.counts().byKey[KEYS.openaiA]).toBe(1);
    expect(mock.counts().byKey[KEYS.openaiB]).toBe(1);
    expect(response.headers.get("x-detour-model")).toBe("anthropic/mock-claude");
    expect(decodeNoticeHeader(response.headers.get("x-detour-notice") ?? "")).toMatch(
      /^↪️ Model Fallback: anthropic\/mock-claude \(selected openai\/mock-gpt; /,
    );
  });

  it("R-GW-2: an exhausted Anthropic provider is answered by an OpenAI model for the Anthropic client", async () => {
    const { anthropic } = await start({
      model: { primary: "anthropic/mock-claude", fallbacks: ["openai/mock-gpt"] },
      scenario: [{ match: { api: "anthropic" }, steps: ["server-error"], then: "repeat-last" }],
    });
    const message = await anthropic.messages.create({ model: "detour", max_tokens: 50, messages: [{ role: "user", content: "hi" }] });
    expect(message.model).toBe("openai/mock-gpt");
    expect(message.content[0]?.type === "text" ? message.content[0].text : "").toContain("Hello from mock-gpt");

    const stream = anthropic.messages.stream({ model: "detour", max_tokens: 50, messages: [{ role: "user", content: "again" }] });
    expect(await stream.finalText()).toContain("Hello from mock-gpt");
  });

  it("R-NT-2: the notice header is present exactly on the switching and on the clearing response", async () => {
    const { openai, mock, clock } = await start({
      scenario: [{ match: { api: "openai" }, steps: ["unavailable"], then: "repeat-last" }],
    });
    const session = { headers: { "x-detour-session": "e2e-notice" } };
    const notices: (string | null)[] = [];
    const models: string[] = [];
    const turn = async (text: string) => {
      const { data, response } = await openai.chat.completions.create(ask(text), session).withResponse();
      const header = response.headers.get("x-detour-notice");
      notices.push(header === null ? null : decodeNoticeHeader(header));
      models.push(data.model);
    };

    await turn("first"); // switches to the fallback
    await turn("second"); // sticky fallback: silent
    mock.setScenario("healthy");
    // R-SO-3: the origin is probed at most every 5 minutes; move the wall clock past that.
    clock.skewMs = 6 * 60_000;
    await turn("third"); // the probe succeeds: cleared
    await turn("fourth"); // back on the primary: silent

    expect(models).toEqual(["anthropic/mock-claude", "anthropic/mock-claude", "openai/mock-gpt", "openai/mock-gpt"]);
    expect(notices[0]).toMatch(/^↪️ Model Fallback: anthropic\/mock-claude \(selected openai\/mock-gpt; /);
    expect(notices[1]).toBeNull();
    expect(notices[2]).toBe("↪️ Model Fallback cleared: openai/mock-gpt (was anthropic/mock-claude)");
    expect(notices[3]).toBeNull();
  });

  it("R-RA-2: when every candidate is rate-limited the OpenAI client gets a 429 with Retry-After and the attempts", async () => {
    const { openai } = await start({
      scenario: [{ steps: [{ fault: "rate-limit", retryAfterSeconds: 120 }], then: "repeat-last" }],
    });
    const error = await openai.chat.completions.create(ask("hi")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    const retryAfter = Number(rateLimit.headers?.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(100);
    expect(retryAfter).toBeLessThanOrEqual(120);
    const attempts = (rateLimit.error as { attempts?: { provider: string; reason: string }[] }).attempts ?? [];
    expect(attempts.map((attempt) => attempt.provider)).toEqual(["openai", "anthropic"]);
    expect(attempts.every((attempt) => attempt.reason === "rate_limit")).toBe(true);
  });

  it("R-RA-2: a single-model chain whose every profile is rate-limited without a stated reset still gets Retry-After from the cooldowns", async () => {
    const { openai } = await start({
      model: { primary: "openai/mock-gpt", fallbacks: [] },
      scenario: [{ steps: ["rate-limit"], then: "repeat-last" }],
    });
    const error = await openai.chat.completions.create(ask("hi")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const retryAfter = Number((error as InstanceType<typeof OpenAI.RateLimitError>).headers?.get("retry-after"));
    // Both profiles sit on the first ladder step (30 s).
    expect(retryAfter).toBeGreaterThanOrEqual(25);
    expect(retryAfter).toBeLessThanOrEqual(30);
  });

  it("R-RA-2: exhaustion that is not only rate limits is a 503 for the Anthropic client", async () => {
    const { anthropic } = await start({
      scenario: [
        { match: { api: "openai" }, steps: ["rate-limit"], then: "repeat-last" },
        { match: { api: "anthropic" }, steps: ["overloaded"], then: "repeat-last" },
      ],
    });
    const error = await anthropic.messages
      .create({ model: "detour", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(503);
    expect(apiError.headers?.get("retry-after")).toMatch(/^\d+$/);
  });

  it("R-GW-4: a strict user selection that fails answers with the provider's status and message", async () => {
    const { openai } = await start({
      scenario: [{ match: { api: "openai" }, steps: ["billing"], then: "repeat-last" }],
    });
    const session = { headers: { "x-detour-session": "e2e-strict" } };
    await openai.chat.completions.create(ask("/model openai/mock-gpt"), session);
    const error = await openai.chat.completions.create(ask("hi"), session).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
  });
});

describe("secrets", () => {
  it("R-OB-2: keys and tokens never appear in logs, error bodies, status, metrics or the status page", async () => {
    const lines: string[] = [];
    const { openai, anthropic, gateway } = await start({
      logger: { log: (level, message, fields) => lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`) },
      scenario: [
        { match: { key: KEYS.openaiA }, steps: ["revoked-key"], then: "repeat-last" },
        { match: { key: KEYS.openaiB }, steps: ["invalid-key"], then: "repeat-last" },
        { match: { key: KEYS.anthropicA }, steps: ["billing"], then: "repeat-last" },
      ],
    });
    const outputs: string[] = [];
    const failure = await openai.chat.completions.create(ask("hi")).catch((caught: unknown) => caught);
    outputs.push(JSON.stringify((failure as InstanceType<typeof OpenAI.APIError>).error), String((failure as Error).message));
    const streamFailure = await anthropic.messages
      .create({ model: "detour", max_tokens: 10, stream: true, messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    outputs.push(String((streamFailure as Error).message));
    const authorization = { authorization: `Bearer ${openai.apiKey}` };
    for (const path of ["/status", "/metrics", "/", "/admin/profiles", "/v1/models"]) {
      outputs.push(await (await fetch(`${gateway.url}${path}`, { headers: authorization })).text());
    }
    const everything = [...lines, ...outputs].join("\n");
    expect(lines.length).toBeGreaterThan(0);
    expect(everything).toContain("openai:a");
    for (const secret of [...Object.values(KEYS), openai.apiKey]) expect(everything).not.toContain(secret);
  });
});
