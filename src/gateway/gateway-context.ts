/** What every gateway route shares: the engine, the config, the clock, metrics and the logger. */
import type { DetourConfig } from "../config/index.js";
import type { Detour, DetourEngine, CanonicalRunner, ChatRunner } from "../engine/index.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/events.js";
import type { GatewayMetrics } from "./metrics.js";

/** The parts of a Detour the gateway uses; the optional ones are what `createDetour` builds beyond a bare `run`. */
export type GatewayDetour = Pick<Detour, "sessions" | "profiles" | "status" | "on"> &
  Partial<Pick<DetourEngine, "recordUsage" | "embed" | "countTokens" | "passThrough" | "traces">>;

export interface GatewayContext {
  detour: GatewayDetour;
  run: CanonicalRunner["run"];
  config: DetourConfig;
  clock: Clock;
  metrics: GatewayMetrics;
  logger: Logger;
  /** `main` plus every agent of `agents.list`: a `model` naming one selects its chain (R-GW-3). */
  knownAgentIds: readonly string[];
  /** The same-wire lane (R-GW-6); absent for an engine without config-built providers (the canonical path). */
  passThrough?: ChatRunner | undefined;
}
