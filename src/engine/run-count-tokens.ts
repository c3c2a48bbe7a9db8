/**
 * `detour.countTokens(…)`, behind `POST /v1/messages/count_tokens`: the request goes through the runner to
 * the chain's Anthropic Messages candidates (credentials swapped, profiles rotated and cooled down on failure
 * as for chat), and the provider's exact count comes back as its bytes. Candidates of other APIs have no
 * count endpoint: they are left out of the chain before the run (no fallback, no notice). When no candidate
 * can answer, the caller falls back to its own estimate.
 */
import type { DetourConfig } from "../config/index.js";
import type { Clock } from "../ports/clock.js";
import type { AttemptContext, RunOutcome } from "../runner/attempt.js";
import type { AnthropicClientHeaders } from "../providers/anthropic/quirks.js";
import { anthropicCountTokensTarget } from "../providers/embeddings-targets.js";
import type { ResponseHeaders } from "../providers/shared/http-client.js";
import { IncompatibleRequestError } from "../providers/shared/incompatible.js";
import { looksLikeJsonObject, openPassThrough, readPassThroughBody } from "../providers/shared/pass-through-call.js";
import { unreadableResponseFailure } from "../providers/shared/upstream-failure.js";
import type { HeadroomRecorder } from "../pipe/headroom-recorder.js";
import { providerCallSettings } from "./provider-call-settings.js";
import type { CanonicalRunOptions, RunnerDetour } from "../pipe/run-canonical.js";
import { normalizeRunError } from "../pipe/run-errors.js";
import { callContext, routingOptionsOf } from "../pipe/run-options.js";

export type CountTokensOptions = Omit<CanonicalRunOptions, "request" | "stream" | "sessionKey"> & {
  /** The client's count_tokens body (a Messages request without `max_tokens`), as sent. */
  body: Readonly<Record<string, unknown>>;
  /** `anthropic-version` / `anthropic-beta` the client chose. */
  clientHeaders?: AnthropicClientHeaders;
};

export interface CountTokensAnswer {
  status: number;
  headers: ResponseHeaders;
  /** The provider's answer (`{"input_tokens": n}`), as bytes. */
  body: Buffer;
}

export type CountTokensRunner = (options: CountTokensOptions) => Promise<RunOutcome<CountTokensAnswer>>;

export function createCountTokensRunner(input: {
  detour: Pick<RunnerDetour, "runWith">;
  config: DetourConfig;
  clock: Clock;
  headroom?: HeadroomRecorder;
}): CountTokensRunner {
  const { config, clock } = input;

  async function attempt(context: AttemptContext, options: CountTokensOptions): Promise<CountTokensAnswer> {
    const settings = providerCallSettings(config, context.provider);
    if (settings?.api !== "anthropic-messages") {
      throw new IncompatibleRequestError(
        context.provider,
        context.model,
        "model",
        `only Anthropic Messages providers count tokens, not ${settings?.api ?? "an unconfigured provider"}.`,
      );
    }
    const target = anthropicCountTokensTarget(settings, context.credential, options.clientHeaders ?? {});
    const body = Buffer.from(JSON.stringify({ ...options.body, model: context.model }));
    const response = await openPassThrough(target, body, callContext(context, context.signal, input.headroom?.(options.agentId, context)));
    const bytes = await readPassThroughBody(target, response, context.signal);
    if (!looksLikeJsonObject(bytes)) {
      throw unreadableResponseFailure(context.provider, "the body is not a JSON object", bytes.toString("utf8", 0, 500));
    }
    return { status: response.status, headers: response.headers, body: bytes };
  }

  return async (options) => {
    let lastAttempt: AttemptContext | undefined;
    try {
      // No session: counting tokens never moves a conversation's model or pin.
      return await input.detour.runWith<CountTokensAnswer>({
        ...routingOptionsOf(options),
        // Only these have a count endpoint; passing over the others is not a fallback.
        candidateFilter: (candidate) => providerCallSettings(config, candidate.provider)?.api === "anthropic-messages",
        attempt: (context) => {
          lastAttempt = context;
          return attempt(context, options);
        },
      });
    } catch (error) {
      throw normalizeRunError(error, clock, lastAttempt);
    }
  };
}
