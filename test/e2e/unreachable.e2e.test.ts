/**
 * R-TT-2 from outside: one key, no fallback, the provider's address refuses connections. A real gateway on
 * loopback with its real clock and every failover setting at its default; the official OpenAI client. The
 * client gets its error in well under a second, request after request, instead of waiting for retries and
 * for the cooldown of a host that cannot answer.
 */
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort } from "./fixtures/closed-port.js";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";

const CLIENT_TOKEN = "e2e-unreachable-client-token-7f31";

let gateway: RunningGateway;
beforeAll(async () => {
  const port = await closedPort();
  gateway = await startGateway({
    config: {
      models: { providers: { openai: { api: "openai-completions", baseUrl: `http://127.0.0.1:${port}/v1` } } },
      auth: { profiles: { "openai:a": { provider: "openai", mode: "api_key", keyRef: { env: "UNREACHABLE_OPENAI" } } } },
      agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: [] } } },
      gateway: { auth: { tokens: [CLIENT_TOKEN] } },
      state: { backend: "memory" },
    },
    port: 0,
    env: { UNREACHABLE_OPENAI: "sk-e2e-unreachable-0000000000" },
  });
});
afterAll(async () => {
  await gateway?.close();
});

describe("an unreachable provider", () => {
  it("R-TT-2 one key, no fallback, connection refused: every request gets its error in under a second", async () => {
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 30_000 });
    // The first request also loads the chat path's modules; before this rule it took over 10 s (two
    // same-profile retries with their backoff), so 3 s still tells the two apart on a busy machine.
    for (const [round, stream] of [false, true, false, true].entries()) {
      const started = performance.now();
      const error = await openai.chat.completions
        .create({ model: "openai/gpt-5", messages: [{ role: "user", content: "hi" }], stream })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      const elapsed = performance.now() - started;
      expect(error, `stream ${stream}`).toBeInstanceOf(OpenAI.APIError);
      expect(String((error as Error).message)).toMatch(/ECONNREFUSED|refused|cool/i);
      expect(elapsed, `request ${round}, stream ${stream}: answered after ${Math.round(elapsed)} ms`).toBeLessThan(
        round === 0 ? 3_000 : 1_000,
      );
    }
  });
});
