/**
 * Records run traces the way the gateway does — the real engine over a FakeClock, traces assembled from its
 * events by the trace builder — against a scripted upstream "world" (a function of provider, profile and
 * time). Test helper for the replay; never shipped.
 */
import { parseConfig, type DetourConfig, type DetourConfigInput } from "../../../config/index.js";
import { FailoverError } from "../../../core/errors.js";
import type { RunTraceV1 } from "../../../core/run-trace.js";
import type { AttemptContext } from "../../../runner/attempt.js";
import { RunTraceBuilder } from "../../../runner/run-trace-builder.js";
import { MemoryStateStore } from "../../../state/memory/memory-store.js";
import { FakeClock } from "../../../testing/fake-clock.js";
import { SeededRandom } from "../../../testing/seeded-random.js";
import { createDetour } from "../../create-detour.js";

export type WorldAnswer =
  | { ok: true; latencyMs: number; costUsd?: number }
  | { ok: false; latencyMs: number; status?: number; reason: FailoverError["reason"]; code?: string; retryAfterMs?: number };

export type World = (call: { provider: string; model: string; profileId: string | undefined; at: number }) => WorldAnswer;

export interface RecordedRuns {
  config: DetourConfig;
  traces: RunTraceV1[];
}

export const RECORD_START_MS = 1_767_225_600_000;

/** Starts one run every `everyMs` (sessions cycle over `sessions`) and returns every run's trace. */
export async function recordRuns(options: {
  config: DetourConfigInput;
  world: World;
  runs: number;
  everyMs: number;
  sessions?: number;
  model?: string;
  profiles?: { id: string; provider: string }[];
  /** The attempts report their first content, as the gateway's lanes do, so slow ones are raced (R-HG-1). */
  racing?: boolean;
}): Promise<RecordedRuns> {
  const { config } = parseConfig(options.config, "test config");
  const clock = new FakeClock(RECORD_START_MS);
  const store = new MemoryStateStore({ now: () => clock.now() });
  for (const profile of options.profiles ?? []) {
    await store.upsertProfile({
      id: profile.id,
      credential: { type: "api_key", provider: profile.provider, key: `sk-test-${profile.id}` },
    });
  }
  const detour = await createDetour({ config, store, clock, random: new SeededRandom(3), env: {}, providers: [] });
  const builders = new Map<string, RunTraceBuilder>();
  const traces: RunTraceV1[] = [];
  detour.on("*", (event) => {
    if (!("runId" in event) || event.runId === null) return;
    let builder = builders.get(event.runId);
    if (!builder && event.type === "run_started") builders.set(event.runId, (builder = new RunTraceBuilder()));
    builder?.observe(event, clock.now());
    const trace = builder?.finish();
    if (trace) {
      traces.push(trace);
      builders.delete(event.runId);
    }
  });
  const attempt = async (context: AttemptContext): Promise<{ text: string }> => {
    const answer = options.world({ provider: context.provider, model: context.model, profileId: context.profileId, at: clock.now() });
    await clock.sleep(answer.latencyMs, context.signal);
    if (answer.ok) {
      context.upstreamProgress?.("content");
      return { text: "ok" };
    }
    throw new FailoverError(`scripted ${answer.reason}`, {
      reason: answer.reason,
      ...(answer.status !== undefined ? { status: answer.status } : {}),
      ...(answer.code !== undefined ? { code: answer.code } : {}),
      ...(answer.retryAfterMs !== undefined ? { resetAt: clock.now() + answer.retryAfterMs } : {}),
    });
  };
  let pending = 0;
  for (let index = 0; index < options.runs; index += 1) {
    if (index > 0) await clock.advanceAsync(options.everyMs);
    pending += 1;
    void detour
      .runWith({
        ...(options.model ? { model: options.model } : {}),
        ...(options.racing ? { reportsProgress: true } : {}),
        sessionKey: `session-${index % (options.sessions ?? 5)}`,
        attempt,
      })
      .catch(() => undefined)
      .finally(() => (pending -= 1));
  }
  while (pending > 0) await clock.advanceAsync(clock.nextSleepInMs ?? 0);
  await detour.close();
  return { config, traces };
}
