/**
 * R-SB-5 on the request path: when the store cannot record a success (here: a real SQLite file whose write
 * lock another process keeps), the provider's answer still reaches the client — streamed or not — and the
 * failure is logged and counted in /metrics.
 */
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import type { LogLevel, Logger } from "../../src/ports/events.js";
import { SecretBox } from "../../src/state/secrets.js";
import { SqliteStateStore } from "../../src/state/sqlite/sqlite-store.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { CLIENT_TOKEN, harnessConfig, KEYS } from "../e2e/fixtures/gateway-harness.js";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

class Lines implements Logger {
  readonly entries: { level: LogLevel; message: string }[] = [];
  log(level: LogLevel, message: string): void {
    this.entries.push({ level, message });
  }
}

async function setup() {
  const directory = mkdtempSync(join(tmpdir(), "detour-bookkeeping-"));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const path = join(directory, "detour-agent.sqlite");
  const store = SqliteStateStore.open({
    path,
    secrets: new SecretBox({ key: randomBytes(32), source: "a test key" }, path),
    lockWaitMs: 100,
  });
  cleanups.push(() => store.close());
  const mock: MockProvider = await startMockProvider({ scenario: "healthy", models: ["mock-gpt", "mock-claude"] });
  cleanups.push(() => mock.close());
  const logger = new Lines();
  const gateway: RunningGateway = await startGateway({
    config: harnessConfig(mock.url),
    port: 0,
    store,
    logger,
    env: { E2E_OPENAI_A: KEYS.openaiA, E2E_OPENAI_B: KEYS.openaiB, E2E_ANTHROPIC_A: KEYS.anthropicA },
  });
  cleanups.push(() => gateway.close());
  // Another process holds the write lock for the whole test: every success write times out.
  const other = new Database(path);
  other.exec("BEGIN IMMEDIATE");
  cleanups.push(() => void other.close());
  cleanups.push(() => void other.exec("ROLLBACK"));
  const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 10_000 });
  return { gateway, mock, logger, openai };
}

describe("success bookkeeping is best effort (R-SB-5)", () => {
  it("R-SB-5: a store that refuses the success write still lets the answer reach the client, and the failure is counted", async () => {
    const { gateway, logger, openai } = await setup();
    const answer = await openai.chat.completions.create({ model: "detour", messages: [{ role: "user", content: "hi" }] });
    expect(answer.choices[0]?.message.content).toContain("Hello");

    const stream = await openai.chat.completions.create({ model: "detour", messages: [{ role: "user", content: "hi" }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toContain("Hello");

    // The answers did not wait for the store: each failed write is counted once its lock wait gives up.
    const counted = /detour_state_bookkeeping_failures_total\{operation="recordSuccess"\} 2/;
    let metrics = "";
    for (let look = 0; look < 50 && !counted.test(metrics); look += 1) {
      if (look > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      metrics = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } })).text();
    }
    expect(metrics).toMatch(counted);
    const warnings = logger.entries.filter((entry) => entry.level === "warn" && entry.message.includes("recordSuccess"));
    expect(warnings).toHaveLength(2);
  });
});
