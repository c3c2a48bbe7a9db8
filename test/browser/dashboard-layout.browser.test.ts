/**
 * The dashboard as a person reads it, on a laptop (1400 px) and a phone (420 px), in Debian's chromium driven
 * by the pinned playwright-core: a gateway that has answered with two configured models, one model it was
 * not configured with, a stream (first-token time) and priced answers (cost). Each width is screenshotted
 * into test/browser/screenshots/ (gitignored; $DETOUR_SCREENSHOT_DIR moves it) and its layout is asserted:
 * nothing wider than the screen, chart text at its real size with a labelled y-axis and a "now", the page
 * using the laptop's width instead of a fixed left column, the Headroom column saying why it is empty, and an
 * icon that is no 404.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, SCREENSHOT_DIR } from "./fixtures/chromium.js";
import { openDashboard } from "./fixtures/dashboard-page.js";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { harnessConfig, KEYS } from "../e2e/fixtures/gateway-harness.js";

// What the page-side callbacks of page.evaluate use (the project compiles without the DOM library).
interface PageBox {
  left: number;
  right: number;
  top: number;
  width: number;
  height: number;
}
interface PageNode {
  id: string;
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): PageBox;
  getClientRects(): { length: number };
}
declare const document: {
  documentElement: { clientWidth: number; scrollWidth: number };
  querySelector(selector: string): PageNode | null;
  querySelectorAll(selector: string): Iterable<PageNode>;
};
declare function getComputedStyle(node: unknown, pseudo?: string): { content: string };

const PRICE = { input: 3, output: 15 };

let mock: MockProvider;
let gateway: RunningGateway;
let browser: Browser;

beforeAll(async () => {
  mock = await startMockProvider({
    scenario: [{ match: { key: KEYS.openaiA }, steps: ["rate-limit"], then: "repeat-last" }],
    models: ["mock-gpt", "mock-claude", "mock-mini"],
  });
  const config = harnessConfig(mock.url, { gateway: { auth: {} } });
  const providers = config.models?.providers ?? {};
  config.models = {
    providers: {
      openai: { ...providers.openai, models: [{ id: "mock-gpt", cost: PRICE }] },
      anthropic: { ...providers.anthropic, models: [{ id: "mock-claude", cost: PRICE }] },
      // The same model on a cloud too: its rows stand together under one model row.
      "azure-west": { api: "azure-openai", baseUrl: mock.url, timeoutSeconds: 5, models: [{ id: "mock-gpt", cost: PRICE }] },
    },
  } as typeof config.models;
  config.auth = {
    ...config.auth,
    profiles: { ...config.auth?.profiles, "azure-west:a": { provider: "azure-west", mode: "api_key", keyRef: { env: "E2E_AZURE_WEST" } } },
  };
  gateway = await startGateway({
    config,
    port: 0,
    env: { E2E_OPENAI_A: KEYS.openaiA, E2E_OPENAI_B: KEYS.openaiB, E2E_ANTHROPIC_A: KEYS.anthropicA, E2E_AZURE_WEST: "azure-west-key-1" },
  });
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: "unused", maxRetries: 0, timeout: 10_000 });
  const ask = (model: string) => ({ model, messages: [{ role: "user" as const, content: "hi" }] });
  for (let index = 0; index < 3; index += 1) await client.chat.completions.create(ask("detour"));
  await client.chat.completions.create(ask("anthropic/mock-claude"));
  await client.chat.completions.create(ask("azure-west/mock-gpt"));
  // A model the configuration does not name: the chart names it instead of calling it "other".
  await client.chat.completions.create(ask("openai/mock-mini"));
  const stream = await client.chat.completions.create({ ...ask("detour"), stream: true });
  for await (const _chunk of stream) void _chunk;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await mock?.close();
});

async function openAtWidth(width: number): Promise<{ page: Page; problems: string[] }> {
  const { page, errors, failedResponses } = await openDashboard(browser, gateway.url, { width, height: 900 });
  await expect.poll(() => page.locator('#models-body tr[data-model="openai/mock-mini"]').count()).toBe(1);
  return { page, problems: [...errors, ...failedResponses] };
}

/** Elements whose right edge passes the viewport, by tag and text, so a failure names the culprit. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    return [...document.querySelectorAll("body *")]
      .filter((node) => node.getBoundingClientRect().right > limit + 0.5 && node.getClientRects().length > 0)
      .map(
        (node) => `${node.tagName.toLowerCase()}#${node.id}.${node.getAttribute("class") ?? ""} ${(node.textContent ?? "").slice(0, 40)}`,
      );
  });
}

/** Chart text as drawn: its rendered height, and whether any two x-axis labels overlap. */
function chartText(page: Page, chart: string) {
  return page.evaluate((selector) => {
    const box = (node: PageNode) => node.getBoundingClientRect();
    const xTicks = [...document.querySelectorAll(`${selector} .x-tick`)];
    const yTicks = [...document.querySelectorAll(`${selector} .y-tick`)];
    const overlaps = xTicks.some((tick, index) => {
      const next = xTicks[index + 1];
      return next !== undefined && box(tick).right > box(next).left;
    });
    return {
      xLabels: xTicks.map((tick) => tick.textContent),
      yLabels: yTicks.map((tick) => tick.textContent),
      smallestTextPx: Math.min(...[...xTicks, ...yTicks].map((tick) => box(tick).height)),
      overlaps,
    };
  }, chart);
}

/** The whole page, and the first screen as the person sees it (at its real size, to judge text). */
async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-first-screen.png`) });
}

describe("dashboard layout (real Chromium)", () => {
  it("at 1400 px the page spans the window, charts sit beside the numbers, and everything a newcomer looks for is there", async () => {
    const { page, problems } = await openAtWidth(1400);
    await screenshot(page, "dashboard-1400");

    const layout = await page.evaluate(() => {
      const rect = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
      return {
        viewport: document.documentElement.clientWidth,
        main: rect("main"),
        activity: rect("section.activity"),
        overview: rect("section.overview"),
      };
    });
    // No fixed left column: the content uses the window, centred.
    expect(layout.main.width).toBeGreaterThan(1300);
    expect(Math.abs(layout.main.left - (layout.viewport - layout.main.right))).toBeLessThanOrEqual(2);
    // The charts beside the chains and the numbers.
    expect(layout.overview.left).toBeGreaterThanOrEqual(layout.activity.right);
    expect(Math.abs(layout.overview.top - layout.activity.top)).toBeLessThanOrEqual(2);
    expect(await overflowing(page)).toEqual([]);

    const requests = await chartText(page, "#chart-requests");
    expect(requests.xLabels).toEqual(["-15 min", "-10 min", "-5 min", "now"]);
    expect(requests.yLabels.length).toBeGreaterThanOrEqual(2);
    expect(requests.yLabels[0]).toBe("0");
    expect(requests.smallestTextPx).toBeGreaterThanOrEqual(10);
    expect(requests.overlaps).toBe(false);

    // Unconfigured models by name, never "other".
    expect(await page.locator('#chart-requests rect[data-series="openai/mock-mini"]').count()).toBeGreaterThan(0);
    expect(await page.locator("#legend-requests").textContent()).not.toContain("other");

    // Cost, latency, first-token time and tokens, from what the gateway measured.
    expect(await page.locator("#card-requests").textContent()).toBe("7");
    expect(await page.locator("#card-latency").textContent()).toMatch(/^\d+(\.\d)? m?s · \d+(\.\d)? m?s$/);
    expect(await page.locator("#card-first-token").textContent()).toMatch(/^\d+(\.\d)? m?s · /);
    expect(await page.locator("#card-tokens").textContent()).toMatch(/^[1-9][\d.]*k? · [1-9][\d.]*k?$/);
    expect(await page.locator("#card-cost").textContent()).toMatch(/^\$0\.\d{2,4}$/);
    const claude = page.locator('#models-body tr[data-model="anthropic/mock-claude"] td');
    expect(await claude.nth(5).textContent()).toMatch(/^\$/);
    expect(await page.locator('#models-body tr[data-model="openai/mock-mini"] td').nth(5).textContent()).toBe("no prices");

    // One model on two providers: a row of its own totals, its providers' rows right under it.
    const rows = await page
      .locator("#models-body tr")
      .evaluateAll((nodes) =>
        nodes.map(
          (node) => (node as unknown as PageNode).getAttribute("data-family") ?? (node as unknown as PageNode).getAttribute("data-model"),
        ),
      );
    const family = rows.indexOf("mock-gpt");
    expect(family).toBeGreaterThanOrEqual(0);
    expect(rows.slice(family + 1, family + 3).sort()).toEqual(["azure-west/mock-gpt", "openai/mock-gpt"]);
    const familyCells = page.locator('#models-body tr[data-family="mock-gpt"] td');
    expect(await familyCells.nth(0).textContent()).toBe("mock-gpt · 2 providers");
    expect(await familyCells.nth(1).textContent()).toBe("5");

    // An empty Headroom cell says why.
    const headroom = page.locator('tr[data-profile="anthropic:a"] td.headroom');
    expect(await headroom.textContent()).toBe("no reading yet");
    expect(await headroom.getAttribute("title")).toContain("rate-limit headers");

    // The icon: declared in the page and served at /favicon.ico.
    expect(await page.locator('link[rel="icon"]').count()).toBe(1);
    const icon = await page.request.get(`${gateway.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toContain("image/svg+xml");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("at 420 px nothing is wider than the screen, tables become labelled cards, and chart labels keep their size", async () => {
    const { page, problems } = await openAtWidth(420);
    await screenshot(page, "dashboard-420");

    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(await overflowing(page)).toEqual([]);

    // Each profile is a card whose cells carry their column's name.
    // Read in one synchronous step: the refresh replaces the rows every few seconds.
    const label = await page.evaluate(
      () => getComputedStyle(document.querySelector('tr[data-profile="openai:a"] td[data-label="State"]'), "::before").content,
    );
    expect(label).toBe('"State"');
    expect(await page.locator("#profiles-table thead").evaluate((node) => node.getBoundingClientRect().height)).toBeLessThanOrEqual(1);

    for (const chart of ["#chart-requests", "#chart-failures"]) {
      const text = await chartText(page, chart);
      expect(text.xLabels).toContain("now");
      expect(text.smallestTextPx).toBeGreaterThanOrEqual(10);
      expect(text.overlaps).toBe(false);
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
