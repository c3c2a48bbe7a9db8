/**
 * Scenario harness for runner tests: a real Detour (createDetour) on a memory store, a FakeClock, a
 * SeededRandom and ScriptedProviders, with every log line and event captured.
 */
import type { DetourConfigInput } from "../../src/config/index.js";
import type { Credential } from "../../src/core/types.js";
import { createDetour, type Detour, type RunWithOptions } from "../../src/engine/create-detour.js";
import type { DetourEvent, DetourEventOf, DetourEventType, LogLevel } from "../../src/ports/events.js";
import type { CanonicalResponse } from "../../src/ports/canonical.js";
import { MemoryStateStore } from "../../src/state/memory/memory-store.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { ScriptedProvider } from "../../src/testing/scripted-provider.js";
import { SeededRandom } from "../../src/testing/seeded-random.js";

export const SEED = 7;
export const PRIMARY = "openai/gpt-5";
export const FALLBACK = "anthropic/claude-sonnet-4-6";

export interface LogRecord {
  level: LogLevel;
  message: string;
  fields?: Record<string, unknown>;
}

export interface HarnessOptions {
  config?: DetourConfigInput;
  /** Stored profiles: id → credential (api keys by default). */
  profiles?: Record<string, Credential>;
  providers?: string[];
  env?: Record<string, string>;
  store?: MemoryStateStore;
  clock?: FakeClock;
}

export function apiKey(provider: string, key: string): Credential {
  return { type: "api_key", provider, key };
}

/** Default profiles: two for openai, one for anthropic. */
export const DEFAULT_PROFILES: Record<string, Credential> = {
  "openai:a": apiKey("openai", "sk-test-a"),
  "openai:b": apiKey("openai", "sk-test-b"),
  "anthropic:a": apiKey("anthropic", "sk-ant-test-a"),
};

export const DEFAULT_CONFIG: DetourConfigInput = {
  agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] } } },
};

export type Harness = Awaited<ReturnType<typeof makeHarness>>;

export async function makeHarness(options: HarnessOptions = {}) {
  const clock = options.clock ?? new FakeClock();
  const random = new SeededRandom(SEED);
  const store = options.store ?? new MemoryStateStore();
  for (const [id, credential] of Object.entries(options.profiles ?? DEFAULT_PROFILES)) {
    await store.upsertProfile({ id, credential });
  }
  const logs: LogRecord[] = [];
  const detour: Detour = await createDetour({
    config: options.config ?? DEFAULT_CONFIG,
    store,
    clock,
    random,
    env: options.env ?? {},
    logger: { log: (level, message, fields) => logs.push({ level, message, fields }) },
  });
  const events: DetourEvent[] = [];
  detour.on("*", (event) => events.push(event));

  const providerIds = options.providers ?? ["openai", "anthropic", "google", "openrouter", "ollama"];
  const providers = Object.fromEntries(providerIds.map((id) => [id, new ScriptedProvider({ id, clock })])) as Record<
    string,
    ScriptedProvider
  >;
  const attempt = ScriptedProvider.route(Object.values(providers));

  function provider(id: string): ScriptedProvider {
    const found = providers[id];
    if (!found) throw new Error(`no scripted provider ${id}`);
    return found;
  }

  function run(overrides: Partial<RunWithOptions<CanonicalResponse>> = {}) {
    return detour.runWith<CanonicalResponse>({ attempt, ...overrides });
  }

  /**
   * Drives the FakeClock until `promise` settles: whenever the run waits on a timer, time jumps to the
   * earliest one. Returns the settled outcome so rejections can be asserted without unhandled errors.
   */
  async function drive<T>(promise: Promise<T>, maxSteps = 500): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
    let settled: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
    promise.then(
      (value) => (settled = { ok: true, value }),
      (error: unknown) => (settled = { ok: false, error }),
    );
    for (let step = 0; step < maxSteps; step += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) return settled;
      const next = clock.nextSleepInMs;
      if (next === undefined) continue;
      await clock.advanceAsync(next);
    }
    throw new Error("the run did not settle");
  }

  async function runToEnd(overrides: Partial<RunWithOptions<CanonicalResponse>> = {}) {
    return drive(run(overrides));
  }

  function eventsOf<T extends DetourEventType>(type: T): DetourEventOf<T>[] {
    return events.filter((event): event is DetourEventOf<T> => event.type === type);
  }

  function messages(): string[] {
    return logs.map((log) => log.message);
  }

  return { clock, store, detour, events, logs, providers, provider, attempt, run, drive, runToEnd, eventsOf, messages };
}

/** Unwraps a driven run that must have succeeded. */
export function succeeded<T>(outcome: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!outcome.ok) throw new Error(`expected success, got ${String((outcome.error as Error)?.message ?? outcome.error)}`);
  return outcome.value;
}

/** Unwraps a driven run that must have failed. */
export function failed(outcome: { ok: true; value: unknown } | { ok: false; error: unknown }): unknown {
  if (outcome.ok) throw new Error("expected the run to fail, but it succeeded");
  return outcome.error;
}
