/**
 * R-OB-6 against the demo's config (two OpenAI keys kept in the store, an Anthropic fallback): every built-in
 * drill runs, and a config with a second key and a fallback on another provider keeps its users answered.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { buildDemoConfig } from "../../src/demo/demo-setup.js";
import { DRILLS, runDrill } from "../../src/engine/replay/index.js";

describe("drills against the demo's config", () => {
  it("R-OB-6 every built-in drill runs against the demo's config, whose second key and fallback keep at least 99 % answered", async () => {
    const { config } = parseConfig(buildDemoConfig({ openai: "http://127.0.0.1:9", anthropic: "http://127.0.0.1:9" }), "demo config");
    for (const drill of DRILLS) {
      const outcome = await runDrill(drill, config, "demo");
      expect(outcome.target, drill.name).toBe("openai/gpt-4o-mini");
      expect(outcome.report.runs, drill.name).toBeGreaterThan(100);
      expect(outcome.failedPercent, drill.name).toBeLessThanOrEqual(1);
      // A key's incident is absorbed by the second OpenAI key; a provider's by the Anthropic fallback, with notices.
      if (drill.scope === "provider") expect(outcome.report.notices, drill.name).toBeGreaterThan(0);
      else expect(outcome.report.notices, drill.name).toBe(0);
    }
  }, 120_000);
});
