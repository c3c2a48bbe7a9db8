import { describe, expect, it } from "vitest";
import { formatConfigPath } from "./config-path.js";

describe("formatConfigPath", () => {
  const table: [path: PropertyKey[], text: string][] = [
    [[], ""],
    [["agents", "defaults", "model", "fallbacks", 2], "agents.defaults.model.fallbacks[2]"],
    [["models", "providers", "openai-codex", "baseUrl"], "models.providers.openai-codex.baseUrl"],
    [
      ["agents", "defaults", "models", "anthropic/claude-sonnet-4-6", "alias"],
      'agents.defaults.models["anthropic/claude-sonnet-4-6"].alias',
    ],
    [["auth", "profiles", "openai:me@example.com"], 'auth.profiles["openai:me@example.com"]'],
    [["cron", "jobs", 0, "payload"], "cron.jobs[0].payload"],
    [["a b"], '["a b"]'],
  ];
  it.each(table)("R-CF-2: %j renders as %s", (path, text) => {
    expect(formatConfigPath(path)).toBe(text);
  });
});
