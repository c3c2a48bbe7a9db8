/**
 * `cron.jobs` inside `detour gateway`: each job runs on its croner schedule with the cron selection source
 * (R-CH-2: `payload.model` is the job's primary, `payload.fallbacks` replaces the configured list when
 * present) and writes one log entry per result. A job still running when its next tick comes is not started
 * twice (croner `protect`). Stopping aborts runs in flight, which is not a failure (R-EC-7).
 */
import { Cron } from "croner";
import type { CronJobConfig } from "../config/index.js";
import type { CanonicalRunner } from "../engine/index.js";
import type { Logger } from "../ports/events.js";
import { describeError } from "./cli-errors.js";

const ANSWER_PREVIEW_CHARS = 200;

export interface CronJobsHandle {
  readonly count: number;
  /** When each job runs next, for the start-up message. */
  nextRuns(): { id: string; nextRun: string | null }[];
  /** Stops scheduling; runs in flight are aborted, or with `{ finishRuns: true }` (a reload) awaited. */
  stop(options?: { finishRuns?: boolean }): Promise<void>;
}

export async function runCronJob(run: CanonicalRunner["run"], job: CronJobConfig, logger: Logger, signal?: AbortSignal): Promise<void> {
  const started = Date.now();
  try {
    const outcome = await run({
      source: "cron",
      ...(job.agentId !== undefined ? { agentId: job.agentId } : {}),
      ...(job.sessionKey !== undefined ? { sessionKey: job.sessionKey } : {}),
      ...(job.payload.model !== undefined ? { model: job.payload.model } : {}),
      ...(job.payload.fallbacks !== undefined ? { fallbacks: job.payload.fallbacks } : {}),
      ...(signal ? { signal } : {}),
      request: { messages: [{ role: "user", content: [{ type: "text", text: job.payload.message }] }] },
    });
    const text = outcome.result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    logger.log("info", `cron job ${job.id} answered by ${outcome.provider}/${outcome.model}`, {
      event: "cron_job_finished",
      jobId: job.id,
      outcome: "succeeded",
      provider: outcome.provider,
      model: outcome.model,
      profileId: outcome.profileId ?? null,
      failedAttempts: outcome.attempts.length,
      notice: outcome.notice ?? null,
      durationMs: Date.now() - started,
      answerPreview: text.length > ANSWER_PREVIEW_CHARS ? `${text.slice(0, ANSWER_PREVIEW_CHARS)}…` : text,
    });
  } catch (error) {
    const aborted = signal?.aborted === true;
    logger.log(aborted ? "info" : "error", `cron job ${job.id} ${aborted ? "was stopped" : "failed"}: ${describeError(error)}`, {
      event: "cron_job_finished",
      jobId: job.id,
      outcome: aborted ? "aborted" : "failed",
      code: (error as { code?: unknown }).code ?? null,
      durationMs: Date.now() - started,
    });
  }
}

export function startCronJobs(jobs: readonly CronJobConfig[], run: CanonicalRunner["run"], logger: Logger): CronJobsHandle {
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const crons = jobs.map(
    (job) =>
      new Cron(job.schedule, { name: `detour-cron-${job.id}`, protect: true }, async () => {
        const running = runCronJob(run, job, logger, stopping.signal);
        inFlight.add(running);
        try {
          await running;
        } finally {
          inFlight.delete(running);
        }
      }),
  );
  return {
    count: crons.length,
    nextRuns: () => crons.map((cron, index) => ({ id: jobs[index]?.id ?? "?", nextRun: cron.nextRun()?.toISOString() ?? null })),
    async stop(options) {
      for (const cron of crons) cron.stop();
      if (options?.finishRuns !== true) stopping.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}
