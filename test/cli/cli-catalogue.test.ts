/**
 * `detour catalogue update | show` through the built binary, against a loopback server standing in for
 * models.dev: the fetched catalogue is cached under DETOUR_HOME and used; a failed fetch keeps the previous
 * cache and says so.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort } from "../e2e/fixtures/closed-port.js";
import { ensureBuilt } from "./helpers/build.js";
import { createSandbox, type Sandbox } from "./helpers/run-detour.js";

const API_JSON = {
  anthropic: {
    id: "anthropic",
    models: {
      "claude-sonnet-4-6": {
        id: "claude-sonnet-4-6",
        reasoning: true,
        cost: { input: 2.5, output: 12.5, cache_read: 0.25 },
        limit: { context: 1_000_000, output: 64_000 },
      },
    },
  },
  openai: {
    id: "openai",
    models: { "gpt-5.2": { id: "gpt-5.2", cost: { input: 1.75, output: 14 }, limit: { context: 400_000, output: 128_000 } } },
  },
};

let sandbox: Sandbox;
let server: Server;
let base: string;
let answer: { status: number; body: string } = { status: 200, body: JSON.stringify(API_JSON) };

beforeAll(async () => {
  await ensureBuilt();
  sandbox = createSandbox();
  server = createServer((_request, response) => {
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  sandbox.cleanup();
  await new Promise((resolve) => server.close(resolve));
});

describe("detour catalogue", () => {
  it("R-GW-12 bare current Claude names resolve and are priced from the bundled snapshot before any update", async () => {
    for (const model of ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-4-6"]) {
      const result = await sandbox.run(["catalogue", "show", model, "--json"]);
      expect(result.code, result.stderr).toBe(0);
      const shown = JSON.parse(result.stdout);
      expect(shown.ref).toBe(`anthropic/${model}`);
      expect(shown.catalogue.layer).toBe("bundled snapshot");
      expect(shown.prices.value.input).toBeGreaterThan(0);
      expect(shown.contextWindow.value).toBe(200_000);
    }
  });

  it("R-GW-12 update fetches models.dev's catalogue, caches it under DETOUR_HOME, and show explains the figures from it", async () => {
    answer = { status: 200, body: JSON.stringify(API_JSON) };
    const update = await sandbox.run(["catalogue", "update", "--url", `${base}/api.json`]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/Catalogue updated: 2 models of 2 providers/);
    const cache = join(sandbox.detourHome, "catalogue", "models-dev.json");
    expect(existsSync(cache)).toBe(true);
    expect(JSON.parse(readFileSync(cache, "utf8")).source).toBe(`${base}/api.json`);

    const shown = await sandbox.run(["catalogue", "show", "anthropic/claude-sonnet-4-6"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/catalogue: models\.dev cache \(\d{4}-\d{2}-\d{2}T/);
    expect(shown.stdout).toMatch(/context window: 1,000,000 tokens {2}\[models\.dev cache\]/);
    expect(shown.stdout).toMatch(/prices: +input \$2\.5, output \$12\.5, cache read \$0\.25 per million tokens/);
    // A model the fetched list lacks still has its bundled row.
    const haiku = JSON.parse((await sandbox.run(["catalogue", "show", "claude-haiku-4-5", "--json"])).stdout);
    expect(haiku.catalogue.layer).toBe("bundled snapshot");
  });

  it("R-GW-12 a failed fetch keeps the previous cache and says so", async () => {
    const cache = join(sandbox.detourHome, "catalogue", "models-dev.json");
    const before = readFileSync(cache, "utf8");
    answer = { status: 503, body: "{}" };
    const failed = await sandbox.run(["catalogue", "update", "--url", `${base}/api.json`]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/answered HTTP 503\. The previous catalogue \(fetched .*\) stays in use\./);
    answer = { status: 200, body: "<html>maintenance</html>" };
    const notJson = await sandbox.run(["catalogue", "update", "--url", `${base}/api.json`, "--json"]);
    expect(notJson.code).toBe(1);
    expect(JSON.parse(notJson.stdout)).toMatchObject({ ok: false, code: "DETOUR_CATALOGUE_FETCH_FAILED" });
    const closed = await closedPort();
    const unreachable = await sandbox.run([
      "catalogue",
      "update",
      "--url",
      `http://127.0.0.1:${closed}/api.json`,
      "--timeout-seconds",
      "5",
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`Cannot fetch the model catalogue from http://127.0.0.1:${closed}/api.json: ECONNREFUSED`);
    expect(readFileSync(cache, "utf8")).toBe(before);
    const shown = JSON.parse((await sandbox.run(["catalogue", "show", "anthropic/claude-sonnet-4-6", "--json"])).stdout);
    expect(shown.contextWindow).toEqual({ value: 1_000_000, source: "models.dev cache" });
  });

  it("R-GW-12 a model nobody offers is bad input that names the closest names", async () => {
    const result = await sandbox.run(["catalogue", "show", "claude-sonet-4-6"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/claude-sonnet-4-6/);
  });
});
