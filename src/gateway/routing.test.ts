import { describe, expect, it } from "vitest";
import { resolveRouting, RoutingError } from "./routing.js";

const agents = ["main", "research"];

describe("resolveRouting", () => {
  it.each([
    ["no headers", {}, "openai/gpt-a", { agentId: "main", model: "openai/gpt-a" }],
    ["agent header", { "x-detour-agent": "research" }, "openai/gpt-a", { agentId: "research", model: "openai/gpt-a" }],
    ["session header", { "x-detour-session": " s-1 " }, "claude", { agentId: "main", sessionKey: "s-1", model: "claude" }],
    ["fallback list", { "x-detour-fallbacks": "a/b, c/d" }, undefined, { agentId: "main", fallbacks: ["a/b", "c/d"] }],
    ["fallbacks none", { "x-detour-fallbacks": "None" }, "openai/x", { agentId: "main", fallbacks: [], model: "openai/x" }],
    ["cron source", { "x-detour-source": "cron" }, "detour", { agentId: "main", source: "cron" }],
    ["heartbeat source", { "x-detour-source": "Heartbeat" }, "detour", { agentId: "main", source: "heartbeat" }],
    ["detour keyword", {}, "detour", { agentId: "main" }],
    ["agent id as model", {}, "research", { agentId: "research" }],
    ["empty model", {}, "  ", { agentId: "main" }],
  ])("R-GW-3: %s", (_name, headers, model, expected) => {
    expect(resolveRouting(headers, model, agents)).toEqual(expected);
  });

  it.each([
    ["x-detour-source", { "x-detour-source": "daily" }, "detour"],
    ["x-detour-fallbacks", { "x-detour-fallbacks": "a/b,,c/d" }, "detour"],
    ["x-detour-agent", { "x-detour-agent": "../etc" }, "detour"],
    ["model", { "x-detour-agent": "main" }, "research"],
  ])("R-GW-3: a bad %s is a RoutingError naming it", (path, headers, model) => {
    const error = (() => {
      try {
        resolveRouting(headers, model, agents);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(RoutingError);
    expect((error as RoutingError).path).toBe(path);
  });
});
