/**
 * Every way a request reaches a provider, built once per engine from one set of settings: the canonical lane
 * (`detour.run`), the same-wire byte lane (R-GW-6), embeddings and count_tokens. The library, the gateway and
 * the CLI all use these, so a setting (first-token timeout, stall, continuation, headroom) cannot differ
 * between front ends.
 */
import type { DetourConfig } from "../config/index.js";
import type { Clock } from "../ports/clock.js";
import type { Provider } from "../ports/provider.js";
import type { HeadroomRecorder } from "../pipe/headroom-recorder.js";
import { createCanonicalRunner, type CanonicalRunner, type RunnerDetour } from "../pipe/run-canonical.js";
import { createCountTokensRunner, type CountTokensRunner } from "./run-count-tokens.js";
import { createEmbeddingsRunner, type EmbeddingsRunner } from "./run-embeddings.js";
import { createPassThroughRunner, passThroughTargetsFromConfig, type PassThroughRunner } from "../pipe/run-pass-through.js";
import { continuationSettingsFromConfig } from "../pipe/stream-continuation.js";

export interface EngineLanes {
  canonical: CanonicalRunner;
  /** Absent when no provider of the config can be called raw (then every chat request takes the canonical lane). */
  passThrough: PassThroughRunner | undefined;
  embed: EmbeddingsRunner;
  countTokens: CountTokensRunner;
}

export function createLanes(input: {
  detour: RunnerDetour;
  /** The config the providers were built from (a discovered local Ollama's address included). */
  config: DetourConfig;
  providers: ReadonlyMap<string, Provider>;
  clock: Clock;
  headroom: HeadroomRecorder;
}): EngineLanes {
  const { detour, config, providers, clock, headroom } = input;
  const settings = {
    clock,
    ttftTimeoutSeconds: config.gateway.ttftTimeoutSeconds,
    streamStallSeconds: config.gateway.streamStallSeconds,
    continuations: continuationSettingsFromConfig(config),
    // R-PO-7: every lane's upstream responses are read for rate-limit headroom.
    headroom,
  };
  const targets = passThroughTargetsFromConfig(config, providers);
  return {
    canonical: createCanonicalRunner(detour, providers, settings),
    passThrough: targets.size > 0 ? createPassThroughRunner(detour, providers, targets, settings) : undefined,
    embed: createEmbeddingsRunner({ detour, config, clock, headroom }),
    countTokens: createCountTokensRunner({ detour, config, clock, headroom }),
  };
}
