/**
 * Every way a request reaches a provider, built once per engine from one set of settings: the pipe's chat
 * runner (its canonical face is `detour.run`; the gateway hands it the client's bytes too, R-GW-6),
 * embeddings and count_tokens. The library, the gateway and the CLI all use these, so a setting (first-token
 * timeout, stall, continuation, headroom) cannot differ between front ends.
 */
import type { DetourConfig } from "../config/index.js";
import type { Clock } from "../ports/clock.js";
import type { Provider } from "../ports/provider.js";
import type { HeadroomRecorder } from "../pipe/headroom-recorder.js";
import { sameWireTargetsFromConfig } from "../pipe/attempt-same-wire.js";
import { createChatRunner, type ChatRunner } from "../pipe/chat-runner.js";
import { canonicalRunnerOf, type CanonicalRunner } from "../pipe/run-canonical.js";
import type { RunnerDetour } from "../pipe/run-with.js";
import { createCountTokensRunner, type CountTokensRunner } from "./run-count-tokens.js";
import { createEmbeddingsRunner, type EmbeddingsRunner } from "./run-embeddings.js";
import { continuationSettingsFromConfig } from "../pipe/stream-continuation.js";

export interface EngineLanes {
  /** The chat runner's canonical face (`detour.run`). */
  canonical: CanonicalRunner;
  /**
   * The same chat runner, for requests that come with the client's bytes; absent when no provider of the
   * config can be called with them (then every chat request is run canonically).
   */
  passThrough: ChatRunner | undefined;
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
    // R-PO-7: every upstream response is read for rate-limit headroom.
    headroom,
  };
  const targets = sameWireTargetsFromConfig(config, providers);
  const chat = createChatRunner(detour, providers, targets.size > 0 ? targets : undefined, settings);
  return {
    canonical: canonicalRunnerOf(chat),
    passThrough: targets.size > 0 ? chat : undefined,
    embed: createEmbeddingsRunner({ detour, config, clock, headroom }),
    countTokens: createCountTokensRunner({ detour, config, clock, headroom }),
  };
}
