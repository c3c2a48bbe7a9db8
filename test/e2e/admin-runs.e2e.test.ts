/**
 * `GET /admin/runs` (R-OB-4) through a real gateway and the mock provider: the recent runs as their traces,
 * newest first, filtered by outcome, model and session, with a limit the gateway bounds; guarded like every
 * admin route; no key, prompt or answer text in what it returns. `/metrics` counts the traces written.
 */
import { describe, expect, it } from "vitest";
import type { RunTraceV1 } from "../../src/core/run-trace.js";
import { hashSessionKey } from "../../src/ports/trace-store.js";
import { CLIENT_TOKEN, KEYS, harnessClosedAfterEachTest, type Harness } from "./fixtures/gateway-harness.js";

const ADMIN_TOKEN = "runs-admin-token-90ab";
const start = harnessClosedAfterEachTest();
/** The harness of the test running, for getRuns. */
let harness: Harness | undefined;

interface RunsAnswer {
  agentId: string;
  limit: number;
  runs: RunTraceV1[];
  traceWrites: { written: number; dropped: number; queued: number };
}

async function getRuns(
  query: string,
  token: string | null = ADMIN_TOKEN,
): Promise<{ status: number; body: RunsAnswer & { error?: { message: string } } }> {
  const response = await fetch(
    `${harness!.gateway.url}/admin/runs${query}`,
    token ? { headers: { authorization: `Bearer ${token}` } } : {},
  );
  return { status: response.status, body: (await response.json()) as RunsAnswer & { error?: { message: string } } };
}

describe("GET /admin/runs", () => {
  it("R-OB-4 lists recent runs newest first with their attempts, filtered by outcome, model and session, behind the admin token", async () => {
    harness = await start({
      // Key a is rate-limited once: the first run rotates to key b. Then OpenAI overloads: runs move to Anthropic.
      scenario: [
        { match: { key: KEYS.openaiA }, steps: ["rate-limit"], then: "repeat-last" },
        { match: { key: KEYS.openaiB }, steps: ["ok", "overloaded"], then: "repeat-last" },
      ],
      gateway: { auth: { tokens: [CLIENT_TOKEN], adminTokens: [ADMIN_TOKEN] } },
    });
    const ask = (content: string) => ({ model: "detour", messages: [{ role: "user" as const, content }] });
    await harness.openai.chat.completions.create(ask("the secret prompt one"), { headers: { "x-detour-session": "chat-alpha" } });
    await harness.openai.chat.completions.create(ask("the secret prompt two"), { headers: { "x-detour-session": "chat-beta" } });

    expect((await getRuns("", null)).status).toBe(401);
    expect((await getRuns("", CLIENT_TOKEN)).status).toBe(401);

    const all = await getRuns("");
    expect(all.status).toBe(200);
    expect(all.body.agentId).toBe("main");
    expect(all.body.limit).toBe(50);
    expect(all.body.runs).toHaveLength(2);
    const [newest, oldest] = all.body.runs;
    expect(newest!.startedAt).toBeGreaterThanOrEqual(oldest!.startedAt);
    expect(oldest!.sessionHash).toBe(hashSessionKey("chat-alpha"));
    expect(oldest!.attempts.map((a) => [a.profileId, a.outcome, a.status])).toEqual([
      ["openai:a", "failed", 429],
      ["openai:b", "succeeded", null],
    ]);
    expect(newest!.answeredBy).toMatchObject({ provider: "anthropic", model: "mock-claude" });
    expect(newest!.attempts.map((a) => [a.provider, a.outcome, a.reason])).toEqual([
      ["openai", "failed", "overloaded"],
      ["anthropic", "succeeded", null],
    ]);
    expect(all.body.traceWrites).toMatchObject({ written: 2, dropped: 0 });

    expect((await getRuns("?model=anthropic/mock-claude")).body.runs.map((run) => run.runId)).toEqual([newest!.runId]);
    expect((await getRuns("?session=chat-alpha")).body.runs.map((run) => run.runId)).toEqual([oldest!.runId]);
    expect((await getRuns(`?sessionHash=${hashSessionKey("chat-beta")}`)).body.runs.map((run) => run.runId)).toEqual([newest!.runId]);
    expect((await getRuns("?outcome=succeeded&limit=1")).body.runs.map((run) => run.runId)).toEqual([newest!.runId]);
    expect((await getRuns("?outcome=failed")).body.runs).toEqual([]);
    expect((await getRuns("?outcome=&model=")).body.runs).toHaveLength(2);

    // The gateway bounds the page: a caller cannot ask for more than 200 runs, or for nonsense.
    const tooMany = await getRuns("?limit=100000");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error?.message).toContain("limit is 1–200");
    expect((await getRuns("?outcome=maybe")).status).toBe(400);
    expect((await getRuns("?agent=nobody")).status).toBe(400);

    const text = JSON.stringify(all.body);
    for (const secret of [KEYS.openaiA, KEYS.openaiB, KEYS.anthropicA, "secret prompt", "chat-alpha", "chat-beta", "Hello from"]) {
      expect(text).not.toContain(secret);
    }

    const metrics = await (await fetch(`${harness.gateway.url}/metrics`, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } })).text();
    expect(metrics).toMatch(/detour_trace_writes_total\{result="written"\} 2/);
    expect(metrics).toMatch(/detour_trace_writes_total\{result="dropped"\} 0/);
  }, 30_000);
});
