/**
 * docs/library.md documents what the .d.ts files alone used to: streaming runs, embed, countTokens, events,
 * the notice header's encoding and /dashboard/activity. The calls it shows exist, the streaming example runs
 * against the mock provider on loopback, and the model naming it promises holds.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeNoticeHeader, encodeNoticeHeader, formatNotice } from "../../src/core/notices.js";
import { createDetour, type Detour } from "../../src/engine/create-detour.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";

const root = resolve(import.meta.dirname, "../..");
const doc = readFileSync(join(root, "docs/library.md"), "utf8");
const readme = readFileSync(join(root, "README.md"), "utf8");

let mock: MockProvider;
let detour: Detour;
beforeAll(async () => {
  mock = await startMockProvider();
  detour = await createDetour({
    config: {
      models: { providers: { openai: { api: "openai-completions", baseUrl: `${mock.url}/v1` } } },
      auth: { profiles: { "openai:work": { provider: "openai", mode: "api_key", keyRef: { env: "DOC_TEST_KEY" } } } },
      agents: { defaults: { model: { primary: "openai/mock-gpt" } } },
      state: { backend: "memory" },
    },
    env: { DOC_TEST_KEY: "sk-doc-test-0123456789" },
  });
});
afterAll(async () => {
  await detour?.close();
  await mock?.close();
});

describe("docs/library.md", () => {
  it("is linked from the README and covers streaming, embed, countTokens, events, notices and the dashboard's JSON", () => {
    expect(readme).toContain("(docs/library.md)");
    for (const topic of [
      "stream: true",
      "detour.embed(",
      "detour.countTokens(",
      "detour.on(",
      "decodeNoticeHeader",
      "percent-encoded",
      "/dashboard/activity",
    ]) {
      expect(doc, topic).toContain(topic);
    }
  });

  it("every detour.<method>( it shows exists on an engine", () => {
    const methods = [...new Set([...doc.matchAll(/\bdetour\.(\w+)\(/g)].map((match) => match[1]!))];
    expect(methods).toEqual(expect.arrayContaining(["run", "embed", "countTokens", "on", "close"]));
    for (const method of methods) expect(typeof (detour as unknown as Record<string, unknown>)[method], method).toBe("function");
  });

  it("the streaming example runs: text deltas, then finish, and provider/model joined is the gateway's name", async () => {
    const out = await detour.run({
      stream: true,
      request: { messages: [{ role: "user", content: [{ type: "text", text: "Tell me a story" }] }] },
    });
    let text = "";
    let finished = false;
    for await (const event of out.result.events) {
      if (event.type === "text-delta") text += event.text;
      if (event.type === "finish") finished = true;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(finished).toBe(true);
    expect(`${out.provider}/${out.model}`).toBe("openai/mock-gpt");
    expect(doc).toContain("`${out.provider}/${out.model}`");
  });

  it("the notice header is percent-encoded as documented, and decodeNoticeHeader gives the text back", () => {
    const notice = formatNotice({ kind: "cleared", selected: "openai/gpt-5", previous: "anthropic/claude-sonnet-4-6" });
    const header = encodeNoticeHeader(notice);
    expect(header).toBe(encodeURIComponent(notice));
    expect(header.startsWith("%E2%86%AA")).toBe(true);
    expect(decodeNoticeHeader(header)).toBe(notice);
  });
});
