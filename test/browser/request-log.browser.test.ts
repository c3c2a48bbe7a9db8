/**
 * The dashboard's request log (R-OB-4) in a real browser (Debian's chromium, driven by the pinned
 * playwright-core): runs made through the gateway and the mock provider — one streamed and answered at once, one that
 * failed over from both OpenAI keys to Anthropic, one that nothing answered — listed newest first, filtered by
 * outcome, model and session, and the failed-over run opened into its attempt timeline, whose bars are
 * asserted. A second page is served a recorded run with the optional fields (first-token times, cost, a wait,
 * a hedge) to check they are drawn. Screenshots land in $DETOUR_SCREENSHOT_DIR (default
 * test/browser/screenshots/, gitignored).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SCREENSHOT_DIR } from "./fixtures/chromium.js";
import { browsedGatewayPerFile, openDashboard } from "./fixtures/dashboard-page.js";
import { newTraceAttempt, RUN_TRACE_VERSION, type RunTraceV1 } from "../../src/core/run-trace.js";
import { hashSessionKey } from "../../src/ports/trace-store.js";
import { KEYS } from "../e2e/fixtures/gateway-harness.js";

const ADMIN_TOKEN = "request-log-admin-token-77c2";

const stack = browsedGatewayPerFile(ADMIN_TOKEN, [
  // Run 1: key a answers. Run 2: both OpenAI keys overload, Anthropic answers. Run 3: Anthropic fails too.
  { match: { key: KEYS.openaiA }, steps: ["ok", "overloaded"], then: "repeat-last" },
  { match: { key: KEYS.openaiB }, steps: ["overloaded"], then: "repeat-last" },
  { match: { key: KEYS.anthropicA }, steps: ["ok", "server-error"], then: "repeat-last" },
]);

// What the page-side callbacks of page.evaluate use (the project compiles without the DOM library).
interface PageNode {
  getAttribute(name: string): string | null;
  textContent: string | null;
}
declare const document: { querySelectorAll(selector: string): Iterable<PageNode> };

// The first /admin/runs before the token is typed answers 401; the page says so, the test asserts it.
const openPage = () => openDashboard(stack.browser, stack.harness.gateway.url, { width: 1400, height: 1000 });

const bars = (page: Page, runId: string) =>
  page.evaluate(
    (selector) =>
      [...document.querySelectorAll(selector)].map((rect) => ({
        outcome: rect.getAttribute("data-outcome"),
        fill: rect.getAttribute("fill"),
        x: Number(rect.getAttribute("x")),
        width: Number(rect.getAttribute("width")),
      })),
    `tr[data-run-detail="${runId}"] rect.attempt-bar`,
  );

const runIds = (page: Page) =>
  page.locator("#runs-body tr.run-row").evaluateAll((rows) => rows.map((row) => (row as unknown as PageNode).getAttribute("data-run")));

describe("dashboard request log (real Chromium)", () => {
  it("R-OB-4 lists the gateway's runs newest first, filters them, and opens the failed-over run into its attempt timeline", async () => {
    const ask = { model: "detour", messages: [{ role: "user" as const, content: "a prompt the log must not show" }] };
    // Run 1 is streamed: its trace has the answer's first-token time.
    const stream = await stack.harness.openai.chat.completions.create(
      { ...ask, stream: true },
      { headers: { "x-detour-session": "chat-alpha" } },
    );
    for await (const _chunk of stream) void _chunk;
    await stack.harness.openai.chat.completions.create(ask, { headers: { "x-detour-session": "chat-beta" } });
    await expect(stack.harness.openai.chat.completions.create(ask, { headers: { "x-detour-session": "chat-beta" } })).rejects.toMatchObject(
      {
        status: 500,
      },
    );
    const recorded = (await stack.harness.gateway.detour.traces!.list()).reverse();
    expect(recorded.map((run) => run.outcome)).toEqual(["failed", "succeeded", "succeeded"]);
    const [failed, failedOver, direct] = recorded as [RunTraceV1, RunTraceV1, RunTraceV1];
    expect(failedOver.attempts).toHaveLength(3);

    const { page, errors } = await openPage();
    // Without the admin token the admin route refuses, and the log says what to do.
    await expect.poll(() => page.locator("#runs-message").textContent(), { timeout: 8000 }).toContain("needs the admin token");
    await page.fill("#token", ADMIN_TOKEN);
    await page.locator("#token").dispatchEvent("change");
    await expect.poll(() => runIds(page), { timeout: 8000 }).toEqual([failed.runId, failedOver.runId, direct.runId]);

    const row = page.locator(`tr.run-row[data-run="${failedOver.runId}"]`);
    expect(await row.locator("td[data-label=Outcome]").textContent()).toBe("succeeded");
    expect(await row.locator("td[data-label=Model]").textContent()).toBe("openai/mock-gpt");
    expect(await row.locator("td[data-label='Answered by']").textContent()).toBe("anthropic/mock-claude");
    expect(await row.locator("td[data-label=Attempts]").textContent()).toBe("3 (2 failed)");
    expect(await row.locator("td[data-label=Latency]").textContent()).toMatch(/^\d+ ms$|^\d+\.\d+ s$/);
    expect(await row.locator("td[data-label=Session]").textContent()).toBe(`${hashSessionKey("chat-beta").slice(0, 8)}…`);
    expect(await page.locator(`tr.run-row[data-run="${failed.runId}"] .badge`).textContent()).toBe("failed");

    // Open the failed-over run: three bars on one time axis, in call order, red, red, green.
    await row.locator("button.run-toggle").click();
    await page.waitForSelector(`tr[data-run-detail="${failedOver.runId}"] svg.timeline`);
    const drawn = await bars(page, failedOver.runId);
    expect(drawn.map((bar) => bar.outcome)).toEqual(["failed", "failed", "succeeded"]);
    expect(drawn.map((bar) => bar.fill)).toEqual(["#dc2626", "#dc2626", "#16a34a"]);
    for (const [index, bar] of drawn.entries()) {
      expect(bar.width).toBeGreaterThan(0);
      if (index > 0) expect(bar.x).toBeGreaterThanOrEqual(drawn[index - 1]!.x + drawn[index - 1]!.width - 1);
    }
    const labels = await page.locator(`tr[data-run-detail="${failedOver.runId}"] text.attempt-label`).allTextContents();
    expect(labels).toEqual(["openai/mock-gpt · openai:a", "openai/mock-gpt · openai:b", "anthropic/mock-claude · anthropic:a"]);
    const results = await page.locator(`tr[data-run-detail="${failedOver.runId}"] text.attempt-result`).allTextContents();
    expect(results[0]).toMatch(/^failed 529 overloaded · \d/);
    expect(results[2]).toMatch(/^ok · \d/);
    expect(await page.locator(`tr[data-run-detail="${failedOver.runId}"] .run-facts`).textContent()).toContain(
      "chain openai/mock-gpt → anthropic/mock-claude",
    );

    // The streamed run shows its first-token time, in the row and as a tick on its bar.
    const streamedRow = page.locator(`tr.run-row[data-run="${direct.runId}"]`);
    expect(await streamedRow.locator("td[data-label='First token']").textContent()).toMatch(/^\d+ ms$|^\d+\.\d+ s$/);
    await streamedRow.locator("button.run-toggle").click();
    await page.waitForSelector(`tr[data-run-detail="${direct.runId}"] line.first-token`, { state: "attached" });
    expect((await bars(page, direct.runId)).map((bar) => bar.outcome)).toEqual(["succeeded"]);

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.locator("#request-log").screenshot({ path: join(SCREENSHOT_DIR, "request-log.png") });
    await page.screenshot({ path: join(SCREENSHOT_DIR, "request-log-page.png"), fullPage: true });

    // The open runs stay open across the page's refreshes.
    await page.waitForTimeout(2500);
    expect(await page.locator(`tr[data-run-detail="${failedOver.runId}"] rect.attempt-bar`).count()).toBe(3);
    expect(await page.locator(`tr[data-run-detail="${direct.runId}"] rect.attempt-bar`).count()).toBe(1);

    // Filters: outcome, a model the run called, a session key (hashed by the gateway), a clicked session hash.
    await page.selectOption("#runs-outcome", "failed");
    await expect.poll(() => runIds(page), { timeout: 8000 }).toEqual([failed.runId]);
    await page.selectOption("#runs-outcome", "");
    await page.fill("#runs-model", "anthropic/mock-claude");
    await page.locator("#runs-model").dispatchEvent("change");
    await expect.poll(() => runIds(page), { timeout: 8000 }).toEqual([failed.runId, failedOver.runId]);
    await page.click("#runs-clear");
    await page.fill("#runs-session", "chat-alpha");
    await page.locator("#runs-session").dispatchEvent("change");
    await expect.poll(() => runIds(page), { timeout: 8000 }).toEqual([direct.runId]);
    await page.click("#runs-clear");
    await expect.poll(() => runIds(page), { timeout: 8000 }).toHaveLength(3);
    await page.locator(`tr.run-row[data-run="${failed.runId}"] button.session-hash`).click();
    await expect.poll(() => runIds(page), { timeout: 8000 }).toEqual([failed.runId, failedOver.runId]);
    expect(await page.inputValue("#runs-session")).toBe(hashSessionKey("chat-beta"));
    await page.selectOption("#runs-outcome", "aborted");
    await expect.poll(() => page.locator("#runs-message").textContent(), { timeout: 8000 }).toBe("No recent run matches these filters.");

    expect(errors).toEqual([]);
    // The request log shows hashes only (the Sessions table above it lists session keys, as it always did).
    const html = await page.locator("#request-log").innerHTML();
    for (const hidden of [
      "a prompt the log must not show",
      "chat-alpha",
      KEYS.openaiA,
      KEYS.openaiB,
      KEYS.anthropicA,
      ADMIN_TOKEN,
      "Hello from",
    ]) {
      expect(html).not.toContain(hidden);
    }
    await page.close();
  }, 60_000);

  it("R-OB-4 draws the optional facts of a run when its trace has them: first-token ticks, spend, waits and a hedge", async () => {
    const startedAt = Date.now() - 5000;
    const run: RunTraceV1 = {
      v: RUN_TRACE_VERSION,
      runId: "run-with-everything",
      agentId: "main",
      startedAt,
      sessionHash: hashSessionKey("chat-x"),
      request: { requestedModel: "openai/mock-gpt", dialect: "openai-chat", stream: true, estimatedInputTokens: 1200 },
      chain: ["openai/mock-gpt", "anthropic/mock-claude"],
      selectionSource: "config",
      outcome: "succeeded",
      durationMs: 2400,
      answeredBy: { provider: "anthropic", model: "mock-claude", profileId: "anthropic:a" },
      attempts: [
        newTraceAttempt(
          { offsetMs: 0, provider: "openai", model: "mock-gpt", profileId: "openai:a" },
          { outcome: "failed", status: 429, reason: "rate_limit", durationMs: 150 },
        ),
        newTraceAttempt(
          { offsetMs: 900, provider: "anthropic", model: "mock-claude", profileId: "anthropic:a" },
          {
            outcome: "succeeded",
            status: 200,
            firstTokenMs: 400,
            durationMs: 1500,
            inputTokens: 1180,
            outputTokens: 240,
            costUsd: 0.0123,
            committed: true,
          },
        ),
        newTraceAttempt(
          { offsetMs: 1200, provider: "anthropic", model: "mock-claude", profileId: "anthropic:b" },
          { outcome: "aborted", durationMs: 300, hedge: true },
        ),
      ],
      skips: [{ offsetMs: 160, model: "openai/mock-gpt", profileId: "openai:b", reason: "rate_limit" }],
      waits: [{ offsetMs: 160, kind: "short_wait", waitMs: 700 }],
      headroom: [],
      notices: [{ offsetMs: 2400, kind: "fallback", activeModel: "anthropic/mock-claude" }],
      continuations: 0,
      hedges: 1,
      costUsd: 0.0123,
    };
    const page = await stack.browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.route("**/admin/runs?*", (route) =>
      route.fulfill({
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ agentId: "main", limit: 50, runs: [run], traceWrites: { written: 1, dropped: 0, queued: 0 } }),
      }),
    );
    await page.goto(`${stack.harness.gateway.url}/`);
    const row = page.locator('tr.run-row[data-run="run-with-everything"]');
    await row.waitFor();
    // First token: the answering attempt's start (900 ms) plus its first-token time (400 ms).
    expect(await row.locator("td[data-label='First token']").textContent()).toBe("1.30 s");
    expect(await row.locator("td[data-label=Spend]").textContent()).toBe("$0.0123");
    await row.locator("button.run-toggle").click();
    const detail = page.locator('tr[data-run-detail="run-with-everything"]');
    await detail.locator("svg.timeline").waitFor();
    expect(
      await detail
        .locator("rect.attempt-bar")
        .evaluateAll((rects) => rects.map((rect) => (rect as unknown as PageNode).getAttribute("data-outcome"))),
    ).toEqual(["failed", "succeeded", "aborted"]);
    expect(await detail.locator("line.first-token").count()).toBe(1);
    expect(await detail.locator('rect.wait-bar[data-wait="short_wait"]').count()).toBe(1);
    expect(await detail.locator("rect.attempt-bar.hedge").count()).toBe(1);
    expect(await detail.locator("rect.attempt-bar").nth(1).locator("title").textContent()).toContain("first token after 400 ms · $0.0123");
    expect(await detail.textContent()).toContain("Passed over: openai/mock-gpt · openai:b (rate_limit)");
    expect(await detail.textContent()).toContain("tokens 1180 in · 240 out");
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.locator("#request-log").screenshot({ path: join(SCREENSHOT_DIR, "request-log-optional-facts.png") });
    await page.close();
  }, 60_000);
});
