/**
 * The V8 heap settings `detour gateway` runs with (issue 9: idle RSS <= 80 MB, peak under load <= 120 MB).
 *
 * With V8's defaults the gateway's resident memory is mostly heap it does not need:
 * - the young generation grows to its maximum (2 x 16 MB semi-spaces) while the modules load, because
 *   nearly everything allocated at start survives; the process then idles with 32 MB reserved for it;
 * - under load, objects that live across two scavenges (a request in flight, a metric sample) are promoted,
 *   and V8 lets the old generation grow to ~3x its live size (~25 MB) before a full GC: ~70 MB of garbage.
 *
 * `node --max-semi-space-size=4` would bound the first, but the `detour` bin cannot pass node flags
 * portably (a `#!/usr/bin/env -S node …` shebang is not understood everywhere, and re-executing node would
 * keep a second process alive). So this module uses the two heap flags V8 reads at every GC rather than
 * once at heap setup, set from inside the process:
 * - `--semi-space-growth-factor`: 1 (no growth) until the gateway listens, then a small controller on GC
 *   events lets the young generation grow while it is under GATEWAY_SEMI_SPACE_MB per semi-space and stops
 *   it there. Growth happens in doubling steps at scavenges, so the bound is a step or so, not exact.
 * - `--heap-growing-percent`: the old generation may grow by this share of its live size before the next
 *   full GC (V8 picks 10-300 % on its own). Not a limit: a heap that needs more still gets it, with more
 *   frequent full GCs (mostly marked concurrently on another thread).
 * Trade-off: more scavenges and full GCs per request; see docs for the measured cost. A user who sets any
 * of these flags themselves (command line or NODE_OPTIONS) keeps V8's behaviour with their flags.
 *
 * Only the `detour gateway` process applies this (main.ts): `startGateway()` is a library call and must not
 * change the GC of the process that embeds it.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** Per semi-space; the young generation is two of them. */
export const GATEWAY_SEMI_SPACE_MB = 4;
export const GATEWAY_HEAP_GROWING_PERCENT = 30;

/** Flags that, when the user sets them, mean the user tunes the heap; Detour then leaves it alone. */
const USER_HEAP_FLAGS = [
  "--max-semi-space-size",
  "--min-semi-space-size",
  "--semi-space-growth-factor",
  "--heap-growing-percent",
] as const;

/** V8 accepts `--max_semi_space_size` as well as `--max-semi-space-size`. */
function normalised(flag: string): string {
  return flag.replaceAll("_", "-");
}

/** True when `execArgv` or `NODE_OPTIONS` already tunes the young generation or the heap growing. */
export function userTunesHeap(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const flags = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].map(normalised);
  return flags.some((flag) => USER_HEAP_FLAGS.some((tuned) => flag === normalised(tuned) || flag.startsWith(`${normalised(tuned)}=`)));
}

/** The growth factor that keeps a young generation of `newSpaceBytes` at or under `targetBytes`. */
export function semiSpaceGrowthFactor(newSpaceBytes: number, targetBytes: number): 1 | 2 {
  return newSpaceBytes < targetBytes ? 2 : 1;
}

export interface GatewayHeap {
  /** The gateway listens: from now on the young generation may grow, up to its bound. */
  serving(): void;
  /** Stops watching GC events (the flags stay). */
  stop(): void;
}

export interface GatewayHeapOptions {
  execArgv: readonly string[];
  nodeOptions: string | undefined;
  semiSpaceMb?: number;
  heapGrowingPercent?: number;
}

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

/**
 * Applies the gateway's heap settings to this process, before the gateway's modules load; undefined when
 * the user tunes the heap. Call `serving()` once the gateway listens.
 */
export function boundGatewayHeap(options: GatewayHeapOptions): GatewayHeap | undefined {
  if (userTunesHeap(options.execArgv, options.nodeOptions)) return undefined;
  const targetBytes = 2 * (options.semiSpaceMb ?? GATEWAY_SEMI_SPACE_MB) * 1024 * 1024;
  setFlagsFromString(`--heap-growing-percent=${options.heapGrowingPercent ?? GATEWAY_HEAP_GROWING_PERCENT}`);
  // Start-up allocations survive (they are the gateway), which would grow the young generation to its
  // maximum at once; it stays at its initial size until the gateway serves.
  let factor: 1 | 2 = 1;
  setFlagsFromString("--semi-space-growth-factor=1");
  let observer: PerformanceObserver | undefined;
  const adjust = () => {
    const next = semiSpaceGrowthFactor(newSpaceBytes(), targetBytes);
    if (next === factor) return;
    factor = next;
    setFlagsFromString(`--semi-space-growth-factor=${next}`);
  };
  return {
    serving() {
      if (observer) return;
      observer = new PerformanceObserver(adjust);
      observer.observe({ entryTypes: ["gc"] });
      adjust();
    },
    stop() {
      observer?.disconnect();
      observer = undefined;
    },
  };
}
