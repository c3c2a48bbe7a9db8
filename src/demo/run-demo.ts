/**
 * `detour demo` from start to finish (R-CL-2): a fresh temp DETOUR_HOME, the mock providers and the gateway,
 * the storyline, the summary — and, whatever happens (a failure, Ctrl+C), everything stopped and the temp
 * dir removed before it returns.
 */
import { existsSync } from "node:fs";
import type { Logger } from "../ports/events.js";
import { DemoClock } from "./demo-clock.js";
import type { DemoSink, SummaryEvent } from "./demo-events.js";
import { DEMO_PROFILE_LIST, DEMO_SESSION, FALLBACK_MODEL, PRIMARY_MODEL, profileIdForKey } from "./demo-setup.js";
import { startDemoStack, type DemoStack } from "./demo-stack.js";
import { createDemoWorkspace } from "./demo-workspace.js";
import { driveStoryline } from "./drive-storyline.js";
import { GatewayClient } from "./gateway-client.js";
import { FAST_PACING, WATCHABLE_PACING } from "./pacing.js";
import { RecordingSink } from "./recording-sink.js";
import { RequestTracer } from "./request-trace.js";
import { STORYLINE, type StoryStep } from "./storyline.js";
import { summarize } from "./summary.js";

export interface RunDemoOptions {
  /** No pauses and no time-lapse animation (tests, CI). */
  fast: boolean;
  sink: DemoSink;
  /** Ctrl+C: stops the storyline; cleanup still runs. */
  signal?: AbortSignal;
  logger?: Logger;
  /** Where the temp DETOUR_HOME is created (default: the OS temp dir). */
  tempParent?: string;
  storyline?: readonly StoryStep[];
}

function upstreamCallsByProfile(stack: DemoStack): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const mock of [stack.openaiMock, stack.anthropicMock]) {
    for (const [key, count] of Object.entries(mock.counts().byKey)) {
      const profileId = profileIdForKey(key);
      if (profileId !== undefined) calls[profileId] = (calls[profileId] ?? 0) + count;
    }
  }
  return calls;
}

export async function runDemo(options: RunDemoOptions): Promise<SummaryEvent> {
  const startedAt = performance.now();
  const signal = options.signal ?? new AbortController().signal;
  const sink = new RecordingSink(options.sink);
  const workspace = await createDemoWorkspace(options.tempParent);
  let stack: DemoStack | undefined;
  let client: GatewayClient | undefined;
  let tracer: RequestTracer | undefined;
  try {
    signal.throwIfAborted();
    const clock = new DemoClock();
    stack = await startDemoStack({ workspace, clock, ...(options.logger ? { logger: options.logger } : {}) });
    const detour = stack.detour;
    tracer = new RequestTracer((type, listener) => detour.on(type, listener));
    client = new GatewayClient(stack.gatewayUrl);
    sink.emit({
      type: "demo_started",
      fast: options.fast,
      workspace: workspace.dir,
      gateway: stack.gatewayUrl,
      mocks: { openai: stack.openaiMock.url, anthropic: stack.anthropicMock.url },
      session: DEMO_SESSION,
      primaryModel: PRIMARY_MODEL,
      fallbackModel: FALLBACK_MODEL,
      profiles: DEMO_PROFILE_LIST.map((profile) => ({ id: profile.id, provider: profile.provider })),
    });
    await driveStoryline(
      {
        openaiMock: stack.openaiMock,
        anthropicMock: stack.anthropicMock,
        client,
        tracer,
        clock,
        sink,
        pacing: options.fast ? FAST_PACING : WATCHABLE_PACING,
        signal,
      },
      options.storyline ?? STORYLINE,
    );
    const summary = summarize({
      events: sink.events,
      finalProfiles: sink.lastProfiles()?.profiles ?? [],
      upstreamCalls: upstreamCallsByProfile(stack),
      skippedMs: clock.skippedMs,
      elapsedMs: Math.round(performance.now() - startedAt),
    });
    sink.emit(summary);
    return summary;
  } finally {
    tracer?.stop();
    await client?.close().catch(() => undefined);
    await stack?.close().catch(() => undefined);
    await workspace.remove().catch(() => undefined);
    sink.emit({ type: "cleanup", workspace: workspace.dir, removed: !existsSync(workspace.dir) });
  }
}
