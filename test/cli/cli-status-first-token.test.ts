/**
 * R-TT-1 from outside: the learned first-token figures live in the gateway's memory, and `detour status` is a
 * process of its own. A gateway (SQLite state) answers streamed requests of the official `openai` client from
 * the mock provider; the BUILT `detour status` then reads the figures the gateway kept in the store.
 */
import { randomBytes } from "node:crypto";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../../src/config/index.js";
import { startGateway } from "../../src/gateway/start-gateway.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { CLIENT_TOKEN, harnessConfig, KEYS } from "../e2e/fixtures/gateway-harness.js";
import { ensureBuilt } from "./helpers/build.js";
import { createSandbox, type Sandbox } from "./helpers/run-detour.js";

interface StatusJson {
  firstToken: { provider: string; model: string; samples: number; p50Ms: number; deadlineMs: number; hedgeAfterMs: number | null }[];
}

describe("detour status shows the first-token figures a gateway learned", () => {
  let sandbox: Sandbox;
  let mock: MockProvider;
  beforeAll(async () => {
    await ensureBuilt();
    sandbox = createSandbox();
    mock = await startMockProvider({ models: ["mock-gpt"] });
  }, 300_000);
  afterAll(async () => {
    await mock?.close();
    sandbox?.cleanup();
  });

  it("R-TT-1 the built `detour status` (and --json) shows each model's p50/p95/p99, samples, deadline and hedge delay from the store", async () => {
    const config: DetourConfigInput = {
      ...harnessConfig(mock.url, { model: { primary: "openai/mock-gpt", fallbacks: [] } }),
      state: { backend: "sqlite" },
    };
    const configPath = sandbox.writeConfig(config);
    const env = {
      ...sandbox.env,
      DETOUR_SECRET_KEY: randomBytes(32).toString("base64"),
      E2E_OPENAI_A: KEYS.openaiA,
      E2E_OPENAI_B: KEYS.openaiB,
      E2E_ANTHROPIC_A: KEYS.anthropicA,
    };
    // Before any gateway ran, nothing was learned.
    const before = await sandbox.run(["status", "--json", "--config", configPath], { env });
    expect(before.stderr).toBe("");
    expect((JSON.parse(before.stdout) as StatusJson).firstToken).toEqual([]);

    const gateway = await startGateway({ config, port: 0, env });
    try {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 10_000 });
      for (let index = 0; index < 3; index += 1) {
        let text = "";
        const stream = await client.chat.completions.create({
          model: "openai/mock-gpt",
          messages: [{ role: "user", content: `question ${index}` }],
          stream: true,
        });
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
        expect(text).not.toBe("");
      }
      // The write happens off the requests' path, after their turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await gateway.close();
    }

    const json = await sandbox.run(["status", "--json", "--config", configPath], { env });
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const rows = (JSON.parse(json.stdout) as StatusJson).firstToken;
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ provider: "openai", model: "mock-gpt" });
    expect(row!.samples).toBeGreaterThanOrEqual(1);
    expect(row!.p50Ms).toBeGreaterThanOrEqual(0);
    expect(row!.deadlineMs).toBeGreaterThan(0);
    expect(Object.keys(row!).sort()).toEqual(["deadlineMs", "hedgeAfterMs", "model", "p50Ms", "p95Ms", "p99Ms", "provider", "samples"]);

    const text = await sandbox.run(["status", "--config", configPath], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("first token p50 · p95 · p99");
    expect(text.stdout).toContain("openai/mock-gpt");
  }, 120_000);
});
