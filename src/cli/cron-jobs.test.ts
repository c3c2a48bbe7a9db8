import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { FallbackSummaryError } from "../core/errors.js";
import type { CanonicalRunOptions, CanonicalRunner } from "../pipe/run-canonical.js";
import type { Logger, LogLevel } from "../ports/events.js";
import { runCronJob } from "./cron-jobs.js";

function recordingLogger(): Logger & { entries: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] } {
  const entries: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  return { entries, log: (level, message, fields) => void entries.push({ level, message, ...(fields ? { fields } : {}) }) };
}

const [job] = parseConfig({
  cron: {
    jobs: [
      {
        id: "digest",
        schedule: "0 7 * * *",
        agentId: "ops",
        sessionKey: "cron-digest",
        payload: { message: "Summarise the night", model: "openai/gpt-a", fallbacks: ["anthropic/claude-b"] },
      },
    ],
  },
}).config.cron.jobs;

describe("runCronJob", () => {
  it("R-CH-2: a cron job runs with the cron source, its payload model and fallbacks, and logs the result", async () => {
    if (!job) throw new Error("fixture job missing");
    const calls: CanonicalRunOptions[] = [];
    const run = (async (options: CanonicalRunOptions) => {
      calls.push(options);
      return {
        result: {
          id: "r1",
          model: "gpt-a",
          content: [{ type: "text", text: "All quiet." }],
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 2 },
        },
        provider: "openai",
        model: "gpt-a",
        profileId: "openai:a",
        attempts: [],
        runId: "run-1",
      };
    }) as unknown as CanonicalRunner["run"];
    const logger = recordingLogger();
    await runCronJob(run, job, logger);
    expect(calls).toEqual([
      expect.objectContaining({
        source: "cron",
        agentId: "ops",
        sessionKey: "cron-digest",
        model: "openai/gpt-a",
        fallbacks: ["anthropic/claude-b"],
        request: { messages: [{ role: "user", content: [{ type: "text", text: "Summarise the night" }] }] },
      }),
    ]);
    expect(logger.entries).toEqual([
      expect.objectContaining({
        level: "info",
        message: "cron job digest answered by openai/gpt-a",
        fields: expect.objectContaining({
          event: "cron_job_finished",
          outcome: "succeeded",
          profileId: "openai:a",
          answerPreview: "All quiet.",
        }),
      }),
    ]);
  });

  it("R-CH-2: a failed cron run is logged as an error and does not throw; a stopped one is not a failure", async () => {
    if (!job) throw new Error("fixture job missing");
    const failing = (async () => {
      throw new FallbackSummaryError("All models failed (2): openai/gpt-a: 429 (rate_limit) | anthropic/claude-b: 529 (overloaded)", {
        attempts: [],
      });
    }) as unknown as CanonicalRunner["run"];
    const logger = recordingLogger();
    await runCronJob(failing, job, logger);
    expect(logger.entries[0]).toMatchObject({ level: "error", fields: { outcome: "failed", code: "DETOUR_ALL_MODELS_FAILED" } });

    const stopping = new AbortController();
    stopping.abort();
    const aborted = recordingLogger();
    await runCronJob(failing, job, aborted, stopping.signal);
    expect(aborted.entries[0]).toMatchObject({ level: "info", fields: { outcome: "aborted" } });
  });
});
