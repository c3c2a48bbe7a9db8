import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { catalogueCachePath, parseModelsDev, readCatalogueCache, writeCatalogueCache } from "./refreshed-catalogue.js";

const homes: string[] = [];
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "detour-catalogue-"));
  homes.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const API_JSON = {
  anthropic: {
    id: "anthropic",
    name: "Anthropic",
    models: {
      "claude-sonnet-4-6": {
        id: "claude-sonnet-4-6",
        reasoning: true,
        release_date: "2026-02-17",
        modalities: { input: ["text", "image", "pdf"], output: ["text"] },
        cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        limit: { context: 200000, output: 64000 },
        tool_call: true,
      },
      broken: "not an object",
    },
  },
  empty: { id: "empty" },
};

describe("the refreshed models.dev catalogue", () => {
  it("R-GW-12 keeps only the fields Detour reads from models.dev's api.json", () => {
    const parsed = parseModelsDev(API_JSON);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.modelCount).toBe(1);
    expect(parsed.providers.anthropic?.models["claude-sonnet-4-6"]).toEqual({
      id: "claude-sonnet-4-6",
      reasoning: true,
      release_date: "2026-02-17",
      modalities: { input: ["text", "image", "pdf"] },
      cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
      limit: { context: 200000, output: 64000 },
    });
  });

  it.each([
    [[], "not a JSON object"],
    [{ anthropic: { models: {} } }, "no provider with models"],
    ["<html>", "not a JSON object"],
  ])("R-GW-12 refuses a catalogue it cannot use (%j)", (raw, problem) => {
    const parsed = parseModelsDev(raw);
    expect(parsed).toEqual({ ok: false, problem: expect.stringContaining(problem) });
  });

  it("R-GW-12 writes the cache under DETOUR_HOME and reads it back with its date", () => {
    const detourHome = home();
    const parsed = parseModelsDev(API_JSON);
    if (!parsed.ok) throw new Error(parsed.problem);
    const path = writeCatalogueCache(detourHome, {
      fetchedAt: "2026-11-30T00:00:00.000Z",
      source: "http://127.0.0.1/api.json",
      providers: parsed.providers,
    });
    expect(path).toBe(join(detourHome, "catalogue", "models-dev.json"));
    const read = readCatalogueCache(detourHome);
    expect(read).toMatchObject({
      state: "present",
      catalogue: { fetchedAt: "2026-11-30T00:00:00.000Z", source: "http://127.0.0.1/api.json" },
    });
    expect(JSON.parse(readFileSync(path, "utf8")).format).toBe(1);
  });

  it("R-GW-12 a missing cache is normal and a damaged one is reported, never thrown", () => {
    const detourHome = home();
    expect(readCatalogueCache(detourHome)).toEqual({ state: "missing" });
    const path = catalogueCachePath(detourHome);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "{ half");
    expect(readCatalogueCache(detourHome)).toEqual({ state: "unreadable", problem: expect.stringContaining("not valid JSON") });
    writeFileSync(path, JSON.stringify({ format: 99 }));
    expect(readCatalogueCache(detourHome)).toEqual({ state: "unreadable", problem: expect.stringContaining("detour catalogue update") });
  });
});
