/**
 * `npm run bench:hedging`: the targets of racing instead of waiting, measured on the engine with the default
 * configuration (no timeout or hedging keys set) and a FakeClock, so that minutes of provider time take
 * seconds: when a silent primary and a 20 s first token are answered, how many extra upstream calls hedging
 * makes over healthy traffic, over a steady mix with 5 % slow attempts, and during a full outage of the
 * primary. Prints a Markdown table. Knob: BENCH_HEDGING_REQUESTS (default 1000). No network at all.
 */
import { createDetour } from "../src/engine/create-detour.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../src/ports/canonical.js";
import type { Provider, ProviderCallContext } from "../src/ports/provider.js";
import { MemoryStateStore } from "../src/state/memory/memory-store.js";
import { FakeClock } from "../src/testing/fake-clock.js";
import { SeededRandom } from "../src/testing/seeded-random.js";

const REQUESTS = Number(process.env.BENCH_HEDGING_REQUESTS ?? 1000);
const NEVER = Number.MAX_SAFE_INTEGER;
const request: CanonicalRequest = { messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }] };

/** First-token time of the next call, in ms (NEVER = silent). */
type Pace = () => number;

class PacedProvider implements Provider {
  readonly api = "openai-chat" as const;
  calls = 0;
  constructor(
    readonly id: string,
    private readonly clock: FakeClock,
    public pace: Pace,
  ) {}
  async complete(): Promise<CanonicalResponse> {
    throw new Error("streamed upstream only");
  }
  async *stream(_request: CanonicalRequest, context: ProviderCallContext): AsyncIterable<CanonicalStreamEvent> {
    this.calls += 1;
    const firstTokenMs = this.pace();
    if (firstTokenMs !== NEVER) yield { type: "message-start", id: `${this.id}-1`, model: context.model };
    await this.clock.sleep(firstTokenMs, context.signal);
    yield { type: "text-delta", text: "answer" };
    yield { type: "finish", reason: "stop", usage: { inputTokens: 5, outputTokens: 1 } };
  }
}

async function engine(primaryPace: Pace) {
  const clock = new FakeClock();
  const store = new MemoryStateStore();
  await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-bench-openai-0123456789" } });
  await store.upsertProfile({ id: "anthropic:a", credential: { type: "api_key", provider: "anthropic", key: "sk-ant-bench-0123456789" } });
  const primary = new PacedProvider("openai", clock, primaryPace);
  const fallback = new PacedProvider("anthropic", clock, () => 600);
  const detour = await createDetour({
    config: {
      agents: { defaults: { model: { primary: "openai/gpt-4o-mini", fallbacks: ["anthropic/claude-fallback"] } } },
      state: { backend: "memory" },
    },
    store,
    clock,
    random: new SeededRandom(7),
    providers: [primary, fallback],
    env: {},
  });
  let hedges = 0;
  detour.on("hedge", (event) => {
    if (event.outcome === "started") hedges += 1;
  });
  return { clock, detour, primary, fallback, hedges: () => hedges };
}

/** Runs one request to its end on the FakeClock; returns the simulated time it took. */
async function timed(clock: FakeClock, run: () => Promise<unknown>): Promise<number> {
  const startedAt = clock.now();
  let settled = false;
  run().then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let step = 0; !settled && step < 10_000; step += 1) await clock.advanceAsync(50);
  return clock.now() - startedAt;
}

async function traffic(primaryPace: Pace) {
  const stack = await engine(primaryPace);
  const latencies: number[] = [];
  for (let index = 0; index < REQUESTS; index += 1) latencies.push(await timed(stack.clock, () => stack.detour.run({ request })));
  await stack.detour.close();
  latencies.sort((a, b) => a - b);
  return {
    extraPercent: (100 * stack.hedges()) / REQUESTS,
    upstreamPerRequest: (stack.primary.calls + stack.fallback.calls) / REQUESTS,
    p50: latencies[Math.floor(REQUESTS / 2)]!,
    p99: latencies[Math.floor(REQUESTS * 0.99)]!,
  };
}

async function firstAnswer(primaryPace: Pace): Promise<number> {
  const stack = await engine(primaryPace);
  const ms = await timed(stack.clock, () => stack.detour.run({ request }));
  await stack.detour.close();
  return ms;
}

const random = new SeededRandom(21);
const steady = () => 700 + Math.floor(random.next() * 200);

console.log(`Hedging with the default configuration (simulated time, ${REQUESTS} sequential requests per row).\n`);
console.log("| scenario | answered after (s) |");
console.log("|---|---|");
console.log(`| silent primary, healthy fallback | ${((await firstAnswer(() => NEVER)) / 1000).toFixed(2)} |`);
console.log(`| primary's first token after 20 s, healthy fallback | ${((await firstAnswer(() => 20_000)) / 1000).toFixed(2)} |`);
console.log("");
console.log("| traffic | extra calls (% of requests) | upstream calls / request | p50 / p99 ms |");
console.log("|---|---|---|---|");
for (const [name, pace] of [
  ["healthy, steady first token 700–900 ms", steady],
  ["5 % of primary attempts slow (8 s first token)", () => (random.next() < 0.05 ? 8_000 : steady())],
  ["full outage of the primary (silent)", () => NEVER],
] as const) {
  const row = await traffic(pace);
  console.log(`| ${name} | ${row.extraPercent.toFixed(1)} | ${row.upstreamPerRequest.toFixed(2)} | ${row.p50} / ${row.p99} |`);
}
