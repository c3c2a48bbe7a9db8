import { describe, expect, it } from "vitest";
import { renderStatusPage } from "./render-status-page.js";
import { pageOfSessions } from "./session-page.js";

const NOW = 1_735_689_600_000;

describe("renderStatusPage", () => {
  it("R-GW-1: shows profiles with their state and sessions, escaped, with no external assets", () => {
    const html = renderStatusPage({
      agentId: "main",
      now: NOW,
      primary: "openai/gpt-a",
      fallbacks: ["anthropic/claude-b"],
      profiles: [
        {
          id: "openai:<b>evil</b>",
          provider: "openai",
          type: "api_key",
          usableNow: false,
          usageStats: { cooldownUntil: NOW + 45_000, cooldownReason: "rate_limit", failureCounts: { rate_limit: 2 } },
        },
      ],
      sessionPage: pageOfSessions(
        [{ sessionKey: "s1", providerOverride: "anthropic", modelOverride: "claude-b", modelOverrideSource: "auto" }],
        { offset: 0, limit: 50 },
      ),
    });
    expect(html).toContain("openai/gpt-a → anthropic/claude-b");
    expect(html).toContain("openai:&#60;b&#62;evil&#60;/b&#62;");
    expect(html).not.toContain("<b>evil</b>");
    expect(html).toContain("cooldown (rate_limit) for 45 s");
    expect(html).toContain("rate_limit×2");
    expect(html).toContain("anthropic/claude-b");
    expect(html).not.toMatch(/<script|<link|src=/);
  });

  it("R-GW-1: says so when there is nothing to show", () => {
    const html = renderStatusPage({ agentId: "main", now: NOW, fallbacks: [], profiles: [], sessionPage: pageOfSessions([], { offset: 0, limit: 50 }) });
    expect(html).toContain("No auth profiles are stored or configured.");
    expect(html).toContain("No sessions yet.");
    expect(html).toContain("(none configured)");
  });

  it("R-GW-8: shows one page of sessions with the total and links to the next page", () => {
    const sessions = Array.from({ length: 1000 }, (_, index) => ({ sessionKey: `s${index}`, updatedAt: NOW - index * 1000 }));
    const html = renderStatusPage({
      agentId: "main",
      now: NOW,
      fallbacks: [],
      profiles: [],
      sessionPage: pageOfSessions(sessions, { offset: 0, limit: 50 }),
    });
    expect(html).toContain("Sessions 1–50 of 1000");
    expect(html).toContain("sessionsOffset=50&amp;sessionsLimit=50");
    expect(html).toContain(">s0<");
    expect(html).toContain(">s49<");
    expect(html).not.toContain(">s50<");
    expect(html.length).toBeLessThan(20_000);
  });
});
