/**
 * A `Provider` whose outcomes are scripted per model and per profile, for tests of the runner and of
 * anything built on it. It makes no network calls and records every call it receives.
 *
 *   const openai = new ScriptedProvider({ id: "openai" });
 *   openai.script({ profileId: "openai:a" }, httpError(429, "rate limit"), success("hi"));
 *   openai.always({ model: "gpt-5-mini" }, networkError("ECONNRESET"));
 *
 * Lookup per call: the most specific matcher (profile + model, then profile, then model, then any) with
 * queued outcomes left consumes its next one; else the most specific `always` rule (latest wins); else a
 * success. Failures are thrown as `UpstreamFailure`, exactly as the real adapters do.
 */
import type { Credential } from "../core/types.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent, CanonicalUsage } from "../ports/canonical.js";
import type { Clock } from "../ports/clock.js";
import type { Provider, ProviderApi, ProviderCallContext } from "../ports/provider.js";
import { UpstreamFailure } from "../ports/provider.js";

export type ScriptedOutcome =
  | { kind: "success"; text?: string; usage?: CanonicalUsage; delayMs?: number }
  | {
      kind: "http-error";
      status: number;
      body?: string;
      headers?: Record<string, string>;
      code?: string;
      errorType?: string;
      delayMs?: number;
    }
  | { kind: "network-error"; code: string; message?: string; delayMs?: number }
  /** Never answers; rejects with the signal's reason once the signal aborts (caller abort or watchdog). */
  | { kind: "hang" }
  /** Streams `text`, then the connection is cut (R-ST-2); `complete()` fails like a network error. */
  | { kind: "cut"; text: string; code?: string; delayMs?: number };

/** What a scripted outcome function is told about the call it answers. */
export interface ScriptedCallInfo {
  provider: string;
  model: string;
  profileId?: string;
  /** 1-based number of this call on this provider. */
  sequence: number;
}

export type ScriptedStep = ScriptedOutcome | ((call: ScriptedCallInfo) => ScriptedOutcome);

export interface ScriptMatcher {
  model?: string;
  profileId?: string;
}

export interface ScriptedCall extends ScriptedCallInfo {
  outcome: ScriptedOutcome["kind"];
  /** Status of an `http-error` outcome. */
  status?: number;
  /** Code of a `network-error` / `cut` outcome. */
  code?: string;
  credentialType?: Credential["type"];
  request?: CanonicalRequest;
  mode: "complete" | "stream";
  /** `clock.now()` when the call started, when a clock was given. */
  at?: number;
}

/** The provider call context plus the profile id, which the engine passes when it knows it. */
export type ScriptedCallContext = ProviderCallContext & { profileId?: string };

/** The subset of a runner attempt context this provider needs (kept structural: testing does not import runner). */
export interface ScriptedAttemptContext {
  provider: string;
  model: string;
  profileId?: string;
  credential?: Credential;
  signal: AbortSignal;
}

export interface ScriptedProviderOptions {
  id: string;
  api?: ProviderApi;
  /** Needed for `delayMs` outcomes; the delay sleeps on this clock. */
  clock?: Clock;
}

export const success = (text = "ok", extra: { usage?: CanonicalUsage; delayMs?: number } = {}): ScriptedOutcome => ({
  kind: "success",
  text,
  ...extra,
});

export const httpError = (
  status: number,
  body?: string,
  headers?: Record<string, string>,
  extra: { code?: string; errorType?: string; delayMs?: number } = {},
): ScriptedOutcome => ({ kind: "http-error", status, body, headers, ...extra });

export const networkError = (code: string, message?: string): ScriptedOutcome => ({
  kind: "network-error",
  code,
  message,
});

export const hang = (): ScriptedOutcome => ({ kind: "hang" });

export const cut = (text: string, code = "ECONNRESET"): ScriptedOutcome => ({ kind: "cut", text, code });

interface QueuedScript {
  matcher: ScriptMatcher;
  steps: ScriptedStep[];
  order: number;
}

interface PersistentRule {
  matcher: ScriptMatcher;
  step: ScriptedStep;
  order: number;
}

function specificity(matcher: ScriptMatcher): number {
  return (matcher.profileId !== undefined ? 2 : 0) + (matcher.model !== undefined ? 1 : 0);
}

function matches(matcher: ScriptMatcher, model: string, profileId: string | undefined): boolean {
  return (matcher.model === undefined || matcher.model === model) && (matcher.profileId === undefined || matcher.profileId === profileId);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    signal.addEventListener("abort", () => reject(abortReason(signal)), { once: true });
  });
}

export class ScriptedProvider implements Provider {
  readonly id: string;
  readonly api: ProviderApi;
  readonly calls: ScriptedCall[] = [];
  readonly #clock?: Clock;
  readonly #queued: QueuedScript[] = [];
  readonly #rules: PersistentRule[] = [];
  #registrations = 0;
  #responses = 0;

  constructor(options: ScriptedProviderOptions) {
    this.id = options.id;
    this.api = options.api ?? "openai-chat";
    this.#clock = options.clock;
  }

  /** Queues outcomes for calls that match; each call consumes one. */
  script(matcher: ScriptMatcher, ...steps: ScriptedStep[]): this {
    this.#queued.push({ matcher, steps: [...steps], order: this.#registrations++ });
    return this;
  }

  /** Answers every matching call with `step` once no queued outcome applies. A later rule overrides. */
  always(matcher: ScriptMatcher, step: ScriptedStep): this {
    this.#rules.push({ matcher, step, order: this.#registrations++ });
    return this;
  }

  /** Calls that ended in a failure (anything but success), optionally for one profile. */
  failures(profileId?: string): ScriptedCall[] {
    return this.calls.filter((call) => call.outcome !== "success" && (profileId === undefined || call.profileId === profileId));
  }

  async complete(request: CanonicalRequest, context: ScriptedCallContext): Promise<CanonicalResponse> {
    const { outcome } = this.#begin("complete", context.model, context.profileId, context.credential, request);
    await this.#delay(outcome, context.signal);
    return this.#settle(outcome, context.model, context.signal);
  }

  async *stream(request: CanonicalRequest, context: ScriptedCallContext): AsyncIterable<CanonicalStreamEvent> {
    const { outcome } = this.#begin("stream", context.model, context.profileId, context.credential, request);
    await this.#delay(outcome, context.signal);
    if (outcome.kind === "cut") {
      yield { type: "message-start", id: this.#nextResponseId(), model: context.model };
      yield { type: "text-delta", text: outcome.text };
      throw this.#networkFailure(outcome.code ?? "ECONNRESET", "stream terminated");
    }
    const response = await this.#settle(outcome, context.model, context.signal);
    yield { type: "message-start", id: response.id, model: response.model };
    for (const part of response.content) {
      if (part.type === "text") yield { type: "text-delta", text: part.text };
    }
    yield { type: "finish", reason: response.finishReason, usage: response.usage };
  }

  /** A runner attempt function for this provider alone (`runWith({ attempt: provider.attempt })`). */
  readonly attempt = (context: ScriptedAttemptContext): Promise<CanonicalResponse> => this.complete({ messages: [] }, context);

  /** One attempt function that routes each call to the scripted provider of its candidate's provider. */
  static route(
    providers: readonly ScriptedProvider[],
    request: CanonicalRequest = { messages: [] },
  ): (context: ScriptedAttemptContext) => Promise<CanonicalResponse> {
    const byId = new Map(providers.map((provider) => [provider.id, provider]));
    return async (context) => {
      const provider = byId.get(context.provider);
      if (!provider) {
        throw new Error(`No ScriptedProvider for provider "${context.provider}"; pass one to ScriptedProvider.route().`);
      }
      return provider.complete(request, context);
    };
  }

  #begin(
    mode: ScriptedCall["mode"],
    model: string,
    profileId: string | undefined,
    credential: Credential | undefined,
    request: CanonicalRequest,
  ): { outcome: ScriptedOutcome } {
    const info: ScriptedCallInfo = { provider: this.id, model, profileId, sequence: this.calls.length + 1 };
    const step = this.#nextStep(model, profileId);
    const outcome = typeof step === "function" ? step(info) : step;
    this.calls.push({
      ...info,
      outcome: outcome.kind,
      ...(outcome.kind === "http-error" ? { status: outcome.status } : {}),
      ...(outcome.kind === "network-error" || outcome.kind === "cut" ? { code: outcome.code } : {}),
      credentialType: credential?.type,
      request,
      mode,
      at: this.#clock?.now(),
    });
    return { outcome };
  }

  #nextStep(model: string, profileId: string | undefined): ScriptedStep {
    const queued = this.#queued
      .filter((script) => script.steps.length > 0 && matches(script.matcher, model, profileId))
      .sort((a, b) => specificity(b.matcher) - specificity(a.matcher) || a.order - b.order)[0];
    if (queued) return queued.steps.shift() as ScriptedStep;
    const rule = this.#rules
      .filter((candidate) => matches(candidate.matcher, model, profileId))
      .sort((a, b) => specificity(b.matcher) - specificity(a.matcher) || b.order - a.order)[0];
    return rule?.step ?? success();
  }

  async #delay(outcome: ScriptedOutcome, signal: AbortSignal): Promise<void> {
    const delayMs = "delayMs" in outcome ? outcome.delayMs : undefined;
    if (!delayMs) return;
    if (!this.#clock) {
      throw new Error(`ScriptedProvider "${this.id}": a delayMs outcome needs a clock; pass { clock } to the constructor.`);
    }
    await this.#clock.sleep(delayMs, signal);
  }

  async #settle(outcome: ScriptedOutcome, model: string, signal: AbortSignal): Promise<CanonicalResponse> {
    if (signal.aborted) throw abortReason(signal);
    switch (outcome.kind) {
      case "success":
        return {
          id: this.#nextResponseId(),
          model,
          content: [{ type: "text", text: outcome.text ?? "ok" }],
          finishReason: "stop",
          usage: outcome.usage ?? { inputTokens: 1, outputTokens: 1 },
        };
      case "http-error":
        throw new UpstreamFailure(outcome.body ?? "", {
          provider: this.id,
          status: outcome.status,
          code: outcome.code,
          errorType: outcome.errorType,
          message: outcome.body ?? "",
          headers: outcome.headers,
        });
      case "network-error":
        throw this.#networkFailure(outcome.code, outcome.message);
      case "cut":
        throw this.#networkFailure(outcome.code ?? "ECONNRESET", "stream terminated");
      case "hang":
        return waitForAbort(signal);
    }
  }

  #networkFailure(code: string, message?: string): UpstreamFailure {
    const text = message ?? `connect ${code}`;
    const cause = Object.assign(new Error(text), { code });
    return new UpstreamFailure(text, { provider: this.id, code, message: text }, cause);
  }

  #nextResponseId(): string {
    this.#responses += 1;
    return `scripted-${this.id}-${this.#responses}`;
  }
}
