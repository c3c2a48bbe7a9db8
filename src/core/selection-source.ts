/**
 * Why a run uses the model it uses, and therefore which fallbacks it may walk (SPEC R-CH-2).
 *
 * Precedence, first match wins:
 *  1. `request.strictUserSelection` (`detour run --model`): a one-off user choice, strict.
 *  2. heartbeat run with a heartbeat model (the agent's, else the defaults').
 *  3. cron run with a job model (`payload.model`, or the request model of a cron-sourced request).
 *  4. the session's stored override: user (strict), legacy = no source (strict), auto (walks on).
 *     Clients of the gateway send the same `model` on every turn, so a session override must beat
 *     the request model or `/model` and sticky fallbacks could never take effect.
 *  5. the request model; 6. the agent primary; 7. the configured default.
 * A caller's explicit list (`request.fallbacks`, `cron.fallbacks`) replaces the source's fallbacks
 * for every non-strict source; an empty one (`none`) also sets a stored auto override aside.
 */
import { buildCandidateChain, formatModelRef, resolveModelRef, sameModelRef, type ModelAliases } from "./candidate-chain.js";
import { ModelSelectionError } from "./errors.js";
import type { ModelRef, SessionOverrides } from "./types.js";

export type SelectionSource =
  | "configured_default"
  | "agent_primary"
  | "request_model"
  | "auto_fallback_override"
  | "user_session_override"
  | "legacy_override"
  | "cron_payload"
  | "heartbeat";

export interface SelectionInput {
  defaults: { primary?: string; fallbacks?: readonly string[]; heartbeatModel?: string };
  agent?: {
    id: string;
    model?: string | { primary: string; fallbacks?: readonly string[] };
    heartbeat?: { model?: string };
  };
  aliases?: ModelAliases;
  session?: SessionOverrides;
  request?: { model?: string; fallbacks?: readonly string[] | "none"; strictUserSelection?: boolean };
  source?: "cron" | "heartbeat";
  cron?: { model?: string; fallbacks?: readonly string[] };
}

export interface Selection {
  source: SelectionSource;
  requested: ModelRef;
  chain: ModelRef[];
  /** No fallback by policy: a failure of the requested model is reported as it is. */
  strict: boolean;
  /** The agent's configured primary (its own, else the defaults'). */
  configuredPrimary?: ModelRef;
  /** Heartbeat only: the session's stale auto override must be cleared before this run. */
  clearAutoOverrideBeforeRun: boolean;
}

/** The agent's configured model policy, before any request or session says otherwise. */
interface BasePolicy {
  source: "agent_primary" | "configured_default";
  primaryText?: string;
  /** For agent_primary: the agent's own list; `[]` when it has none (strict). */
  fallbacks: readonly string[];
  /** Names the list in errors. */
  listOrigin: string;
}

/** How the chain continues after the requested model. */
type FallbackPolicy =
  | { kind: "strict" }
  /** Exactly these, no appended primary. */
  | { kind: "explicit"; entries: readonly ModelRef[] }
  /** These, then the configured primary as the last resort. */
  | { kind: "configured"; entries: readonly ModelRef[] };

export function resolveSelection(input: SelectionInput): Selection {
  const aliases = input.aliases;
  const base = basePolicy(input);
  const configuredPrimary = resolveConfiguredPrimary(base.primaryText, aliases);
  // Configured lists are operator text: bare ids belong to the configured primary's provider.
  const configuredFallbacks = resolveList(base.fallbacks, base.listOrigin, aliases, configuredPrimary?.provider);
  const explicitList = explicitFallbacks(input);

  const resolve = (text: string, origin: string): ModelRef => {
    const ref = resolveModelRef(text, { aliases, defaultProvider: configuredPrimary?.provider });
    if (!ref) throw new ModelSelectionError({ input: text, origin });
    return ref;
  };
  // A caller's own list: bare ids are siblings of the model the caller asked for.
  const callerList = (requested: ModelRef): FallbackPolicy | undefined =>
    explicitList === undefined ? undefined : exactly(resolveList(explicitList.entries, explicitList.origin, aliases, requested.provider));
  const walkable = (requested: ModelRef): FallbackPolicy => callerList(requested) ?? { kind: "configured", entries: configuredFallbacks };

  let clearAutoOverrideBeforeRun = false;
  const select = (source: SelectionSource, requested: ModelRef, policy: FallbackPolicy): Selection => {
    const chain = buildCandidateChain({
      requested,
      ...(policy.kind === "strict"
        ? { fallbacksOverride: [] }
        : policy.kind === "explicit"
          ? { fallbacksOverride: policy.entries.map(formatModelRef) }
          : {
              configuredFallbacks: policy.entries.map(formatModelRef),
              configuredPrimary: configuredPrimary && formatModelRef(configuredPrimary),
            }),
    });
    return { source, requested, chain, strict: policy.kind === "strict", configuredPrimary, clearAutoOverrideBeforeRun };
  };

  const request = input.request;
  if (request?.strictUserSelection && request.model !== undefined) {
    return select("user_session_override", resolve(request.model, "request model"), { kind: "strict" });
  }

  const heartbeatModel = input.agent?.heartbeat?.model ?? input.defaults.heartbeatModel;
  if (input.source === "heartbeat" && heartbeatModel !== undefined) {
    const requested = resolve(heartbeatModel, "heartbeat model");
    return select("heartbeat", requested, walkable(requested));
  }

  if (input.source === "cron") {
    const jobModel = input.cron?.model ?? request?.model;
    if (jobModel !== undefined) {
      const requested = resolve(jobModel, "cron payload model");
      return select("cron_payload", requested, walkable(requested));
    }
  }

  const session = input.session;
  const override = session ? sessionOverrideRef(session, aliases, configuredPrimary) : undefined;
  if (session && override) {
    if (session.modelOverrideSource === "user") {
      return select("user_session_override", override, { kind: "strict" });
    }
    if (session.modelOverrideSource === undefined) {
      // Older entries carry no source; treating them as fallback state would silently turn an
      // explicit old choice into something that walks to unrelated models.
      return select("legacy_override", override, { kind: "strict" });
    }
    const origin = autoOverrideOrigin(session, aliases);
    const autoPolicy = (): FallbackPolicy =>
      callerList(override) ?? { kind: "explicit", entries: autoOverrideFallbacks(override, configuredFallbacks) };
    // `none` / `[]` asks for the selected model alone; the auto override is itself a fallback, so it
    // steps aside for this run (the origin answering then clears it, R-SO-3).
    const noFallbacks = explicitList !== undefined && explicitList.entries.length === 0;
    if (noFallbacks) {
      // The request model or the configured one below, strict.
    } else if (input.source === "heartbeat") {
      // No heartbeat model (that case returned above): a stale auto override would keep a background
      // run on a fallback of a default that is no longer configured.
      const stillCurrent = origin !== undefined && configuredPrimary !== undefined && sameModelRef(origin, configuredPrimary);
      if (stillCurrent) return select("auto_fallback_override", override, autoPolicy());
      clearAutoOverrideBeforeRun = true;
    } else {
      const requestModel = request?.model === undefined ? undefined : resolve(request.model, "request model");
      // A client that now asks for another model than the one this fallback stands in for has
      // switched models; the sticky fallback belongs to the old choice.
      const forAnotherModel = requestModel !== undefined && origin !== undefined && !sameModelRef(origin, requestModel);
      if (!forAnotherModel) return select("auto_fallback_override", override, autoPolicy());
    }
  }

  if (request?.model !== undefined) {
    const requested = resolve(request.model, "request model");
    return select("request_model", requested, walkable(requested));
  }

  if (!configuredPrimary) {
    throw new ModelSelectionError({ origin: input.agent?.model ? `agent ${input.agent.id}` : "agents.defaults.model" });
  }
  if (base.source === "agent_primary") {
    return select("agent_primary", configuredPrimary, callerList(configuredPrimary) ?? exactly(configuredFallbacks));
  }
  return select("configured_default", configuredPrimary, walkable(configuredPrimary));
}

/**
 * A chosen list is walked exactly; a chosen empty list is a decision for no fallback at all (strict),
 * unlike an auto override that merely reached the end of the configured chain.
 */
function exactly(entries: readonly ModelRef[]): FallbackPolicy {
  return entries.length === 0 ? { kind: "strict" } : { kind: "explicit", entries };
}

/**
 * An agent with its own `model` is strict unless its model object lists fallbacks (`[]` = explicitly
 * strict); an agent without `model` uses the defaults.
 */
function basePolicy(input: SelectionInput): BasePolicy {
  const agent = input.agent;
  if (agent?.model === undefined) {
    return {
      source: "configured_default",
      primaryText: input.defaults.primary,
      fallbacks: input.defaults.fallbacks ?? [],
      listOrigin: "agents.defaults.model.fallbacks",
    };
  }
  const listOrigin = `agent ${agent.id} model.fallbacks`;
  if (typeof agent.model === "string") return { source: "agent_primary", primaryText: agent.model, fallbacks: [], listOrigin };
  return { source: "agent_primary", primaryText: agent.model.primary, fallbacks: agent.model.fallbacks ?? [], listOrigin };
}

function explicitFallbacks(input: SelectionInput): { entries: readonly string[]; origin: string } | undefined {
  if (input.source === "cron" && input.cron?.fallbacks !== undefined) {
    return { entries: input.cron.fallbacks, origin: "cron payload fallbacks" };
  }
  const listed = input.request?.fallbacks;
  if (listed === undefined) return undefined;
  return { entries: listed === "none" ? [] : listed, origin: "request fallbacks" };
}

function resolveList(
  entries: readonly string[],
  origin: string,
  aliases: ModelAliases | undefined,
  defaultProvider: string | undefined,
): ModelRef[] {
  return entries.map((entry, index) => {
    const ref = resolveModelRef(entry, { aliases, defaultProvider });
    if (!ref) throw new ModelSelectionError({ input: entry, origin: `${origin}[${index}]` });
    return ref;
  });
}

function resolveConfiguredPrimary(text: string | undefined, aliases: ModelAliases | undefined): ModelRef | undefined {
  if (text === undefined) return undefined;
  const ref = resolveModelRef(text, { aliases });
  if (!ref) throw new ModelSelectionError({ input: text, origin: "configured primary" });
  return ref;
}

/**
 * The stored override as a ref. `providerOverride` + `modelOverride` are stored split because model ids
 * may contain `/`; an entry with only `modelOverride` is resolved like typed text.
 */
function sessionOverrideRef(
  session: SessionOverrides,
  aliases: ModelAliases | undefined,
  configuredPrimary: ModelRef | undefined,
): ModelRef | undefined {
  const model = session.modelOverride?.trim();
  if (!model) return undefined;
  const provider = session.providerOverride?.trim().toLowerCase();
  if (provider) return { provider, model };
  const ref = resolveModelRef(model, { aliases, defaultProvider: configuredPrimary?.provider });
  if (!ref) throw new ModelSelectionError({ input: model, origin: "session model override" });
  return ref;
}

function autoOverrideOrigin(session: SessionOverrides, aliases: ModelAliases | undefined): ModelRef | undefined {
  const model = session.modelOverrideFallbackOriginModel?.trim();
  if (!model) return undefined;
  const provider = session.modelOverrideFallbackOriginProvider?.trim().toLowerCase();
  return provider ? { provider, model } : resolveModelRef(model, { aliases });
}

/**
 * R-CH-2: an auto override runs first, then every other configured fallback in configured order, so a
 * session parked on the *last* fallback still reaches the earlier ones when it fails. The primary is not
 * appended: returning to it is the 5-minute origin probe's job (R-SO-3), not a per-message retry.
 */
function autoOverrideFallbacks(override: ModelRef, configuredFallbacks: readonly ModelRef[]): readonly ModelRef[] {
  return configuredFallbacks.filter((ref) => !sameModelRef(ref, override));
}
