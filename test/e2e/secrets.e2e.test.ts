/**
 * R-OB-2 through the gateway: a run seeded with known secrets — including an upstream error that echoes the
 * key back, as some providers do — and then every output a user or operator can see is grepped for them:
 * response bodies and headers, /status, /admin/profiles, /metrics, the status page and every log line.
 */
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Logger } from "../../src/ports/events.js";
import { CLIENT_TOKEN, KEYS, harnessClosedAfterEachTest } from "./fixtures/gateway-harness.js";

const start = harnessClosedAfterEachTest();

describe("secrets never leave Detour", () => {
  it("R-OB-2: no key or token appears in responses, status, admin, metrics, the status page or the logs", async () => {
    const logs: string[] = [];
    const logger: Logger = { log: (level, message, fields) => logs.push(JSON.stringify({ level, message, fields })) };
    const harness = await start({
      logger,
      scenario: [
        // Both OpenAI keys fail with an error that echoes the key; the Anthropic fallback answers.
        ...[KEYS.openaiA, KEYS.openaiB].map((key) => ({
          match: { key },
          steps: [{ fault: "invalid-key" as const, message: `Incorrect API key provided: ${key}. Bearer ${key}` }],
          then: "repeat-last" as const,
        })),
      ],
    });
    const outputs: string[] = [];
    const { data, response } = await harness.openai.chat.completions
      .create({ model: "detour", messages: [{ role: "user", content: "hi" }] }, { headers: { "x-detour-session": "s" } })
      .withResponse();
    outputs.push(JSON.stringify(data), JSON.stringify([...response.headers.entries()]));

    // A strict pin to the failing profile: its error (now a cooldown answer) is rendered to the client too.
    const strict = await harness.openai.chat.completions
      .create(
        { model: "openai/mock-gpt", messages: [{ role: "user", content: "/model openai/mock-gpt@openai:a" }] },
        { headers: { "x-detour-session": "pinned" } },
      )
      .then(() =>
        harness.openai.chat.completions.create(
          { model: "detour", messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-detour-session": "pinned" } },
        ),
      )
      .catch((error: unknown) => error);
    expect(strict).toBeInstanceOf(OpenAI.APIError);
    outputs.push(JSON.stringify((strict as InstanceType<typeof OpenAI.APIError>).error), (strict as Error).message);

    const auth = { authorization: `Bearer ${CLIENT_TOKEN}` };
    for (const path of ["/status", "/admin/profiles", "/metrics", "/", "/admin/sessions/s"]) {
      const page = await fetch(`${harness.gateway.url}${path}`, { headers: auth });
      outputs.push(await page.text());
    }
    outputs.push(...logs);

    const everything = outputs.join("\n");
    expect(everything.length).toBeGreaterThan(1000);
    expect(everything).toContain("openai:a"); // profile ids are fine to show…
    expect(everything).toContain("Incorrect API key provided"); // the echoing error did flow through
    for (const secret of [KEYS.openaiA, KEYS.openaiB, KEYS.anthropicA, CLIENT_TOKEN]) {
      expect(everything).not.toContain(secret); // …their keys never are
    }
  });
});
