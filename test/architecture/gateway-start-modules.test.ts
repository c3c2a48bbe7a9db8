/**
 * Idle RSS: what a plain `detour gateway` start does not call is not loaded at start. Each entry
 * names a module that was once loaded eagerly and now loads on first use; importing it eagerly again (a
 * static import on the start path) makes this test fail. The child starts a real gateway (SQLite store,
 * OpenAI and Anthropic providers, no OAuth profile) in its own process, so nothing this test file or
 * vitest loaded counts.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("./children/loaded-modules.child.ts", import.meta.url));

/** Lazy at gateway start, and where it is loaded instead. */
const LAZY_AT_START: ReadonlyArray<{ module: RegExp; why: string }> = [
  // src/providers/shared/undici-core.ts loads Agent and request only (~9 MB less resident memory).
  { module: /\/node_modules\/undici\/index\.js$/, why: "undici's index loads fetch, WebSocket, cache stores, mocks" },
  // src/engine/oauth-token-request.ts loads it on the first refresh.
  { module: /\/node_modules\/oauth4webapi\//, why: "only OAuth profiles refresh tokens" },
  // src/gateway/lazy-schema-compilers.ts: fastify's schema compilers load only for a route with a schema.
  { module: /\/node_modules\/ajv\//, why: "no gateway route has a JSON schema (ajv, ~9 MB with fast-json-stringify)" },
  // src/engine/replay/index.ts is its own surface, loaded by the `detour replay` and `detour drill` commands only.
  { module: /\/engine\/replay\//, why: "what-if replay and the drills serve two commands, never a gateway request" },
  {
    module: /\/node_modules\/fast-json-stringify\/index\.js$/,
    why: "no gateway route has a response schema (fastify's error serializer loads only its lib/serializer)",
  },
];

describe("gateway start: modules loaded", () => {
  it("does not load what a plain start never calls", () => {
    const child = spawnSync(process.execPath, ["--import", "tsx", CHILD], { encoding: "utf8", timeout: 30_000 });
    expect(child.status, child.stderr).toBe(0);
    const { esm, cjs } = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as { esm: string[]; cjs: string[] };
    const loaded = [...esm, ...cjs];
    // The probe sees both module systems: the gateway itself (ESM) and fastify (CommonJS) are there.
    expect(esm.some((url) => url.endsWith("/gateway/start-gateway.ts"))).toBe(true);
    expect(cjs.some((path) => /\/node_modules\/fastify\/fastify\.js$/.test(path))).toBe(true);
    const eager = LAZY_AT_START.filter(({ module }) => loaded.some((entry) => module.test(entry))).map(
      ({ module, why }) => `${module} (${why})`,
    );
    expect(eager).toEqual([]);
  }, 40_000);
});
