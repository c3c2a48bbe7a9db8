/**
 * The dashboard in a real browser (Debian's chromium, driven by the pinned playwright-core): a gateway whose
 * first OpenAI key is rate-limited and whose OpenAI provider then overloads, so the page has a cooldown, a
 * fallback and failures to show; then the reset button, first without and then with the admin token.
 * Screenshots of the page land in $DETOUR_SCREENSHOT_DIR (default: test/browser/screenshots/, gitignored).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCREENSHOT_DIR } from "./fixtures/chromium.js";
import { browsedGatewayPerFile, openDashboard } from "./fixtures/dashboard-page.js";

const ADMIN_TOKEN = "dashboard-admin-token-5d1e";

const stack = browsedGatewayPerFile(ADMIN_TOKEN, [
  { match: { key: "sk-e2e-openai-a-1111111111" }, steps: ["rate-limit"], then: "repeat-last" },
  { match: { key: "sk-e2e-openai-b-2222222222" }, steps: ["ok", "overloaded"], then: "repeat-last" },
]);

describe("dashboard at / (real Chromium)", () => {
  it("shows profile states with recovery times, the chain, the last minutes' chart, and resets a profile with the admin token", async () => {
    const ask = { model: "detour", messages: [{ role: "user" as const, content: "hi" }] };
    // 1: key a is rate-limited (cooldown), key b answers. 2: key a cooling, key b overloads → anthropic answers.
    await stack.harness.openai.chat.completions.create(ask);
    await stack.harness.openai.chat.completions.create(ask);

    // Resource statuses (the refused reset's 401) are asserted where they matter.
    const { page, errors } = await openDashboard(stack.browser, stack.harness.gateway.url, { width: 1280, height: 1100 });

    const rowA = page.locator('tr[data-profile="openai:a"]');
    await expect.poll(() => rowA.getAttribute("data-state")).toBe("cooldown");
    expect(await rowA.locator(".badge").textContent()).toBe("cooldown");
    expect(await rowA.locator("td.recovers").textContent()).toMatch(/^in \d+ s · \d{2}:\d{2}:\d{2}/);
    expect(await page.locator('tr[data-profile="openai:b"]').getAttribute("data-state")).toBe("cooldown");
    expect(await page.locator('tr[data-profile="anthropic:a"] .badge').textContent()).toBe("usable");
    expect(await page.locator(".chain").first().textContent()).toContain("openai/mock-gpt → anthropic/mock-claude");

    // The chart: both answering models and the fallback, and the failures by reason.
    await expect.poll(() => page.locator("#activity-summary").textContent()).toContain("2 requests · 1 moved to a fallback");
    expect(await page.locator('#chart-requests rect[data-series="openai/mock-gpt"]').count()).toBeGreaterThan(0);
    expect(await page.locator('#chart-requests rect[data-series="anthropic/mock-claude"]').count()).toBeGreaterThan(0);
    expect(await page.locator('#chart-failures rect[data-series="rate_limit"]').count()).toBeGreaterThan(0);
    expect(await page.locator('#chart-failures rect[data-series="overloaded"]').count()).toBeGreaterThan(0);
    expect(await page.locator("#legend-failures").textContent()).toContain("fallback");

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, "dashboard.png"), fullPage: true });

    // Reset without a token: the admin API refuses and the page says so; the profile stays cooling.
    await rowA.locator("button.reset").click();
    await expect.poll(() => page.locator("#admin-message").textContent()).toContain("failed (401)");
    expect(await rowA.getAttribute("data-state")).toBe("cooldown");

    // With the admin token typed in, the reset clears every window and the row turns usable without a reload.
    await page.fill("#token", ADMIN_TOKEN);
    await page.locator("#token").dispatchEvent("change");
    await rowA.locator("button.reset").click();
    await expect.poll(() => page.locator('tr[data-profile="openai:a"]').getAttribute("data-state")).toBe("usable");
    expect(await page.locator("#admin-message").textContent()).toContain("Reset openai:a");
    await page.screenshot({ path: join(SCREENSHOT_DIR, "dashboard-after-reset.png"), fullPage: true });

    expect(errors).toEqual([]);
    // Nothing secret reaches the page.
    const html = await page.content();
    for (const secret of ["sk-e2e-openai-a-1111111111", "sk-e2e-openai-b-2222222222", "sk-ant-e2e-a-3333333333", ADMIN_TOKEN]) {
      expect(html).not.toContain(secret);
    }
    await page.close();
  }, 60_000);
});
