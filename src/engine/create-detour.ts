/**
 * The composition root (DESIGN §1): wires config, clock, random, state stores, providers and the logger into
 * one Detour, and exposes the library API of SPEC §17. Every decision is made by the runner and the core;
 * this file only resolves inputs and hands them over.
 */
import { randomUUID } from "node:crypto";
import {
  agentSettings,
  loadConfig,
  type DetourConfig,
  useCatalogueOfHome,
  modelAliases,
  parseConfig,
  readEnvKnobs,
  resolveProviderSettings,
} from "../config/index.js";
import { chargeUnreportedRequest, type UnreportedRequest } from "../core/headroom/charge.js";
import { narrowSelection } from "../core/narrow-selection.js";
import { resolveSelection } from "../core/selection-source.js";
import { silentLogger, type Logger } from "../ports/events.js";
import type { Provider } from "../ports/provider.js";
import type { StateStore } from "../ports/state-store.js";
import { systemClock } from "../ports/system-clock.js";
import { cryptoRandom } from "../ports/system-random.js";
import type { RunOutcome } from "../runner/attempt.js";
import { classifyAttemptError } from "../runner/failure.js";
import { DecisionSnapshot } from "../runner/decision-snapshot.js";
import { ProbeThrottle } from "../runner/probes.js";
import { recordProfileFailure } from "../runner/profile-failures.js";
import { runWithModelFallback } from "../runner/run-with-model-fallback.js";
import type { RunnerDeps, RunnerSettings } from "../runner/runner-deps.js";
import { SkipCache } from "../runner/skip-cache.js";
import { openStateStore } from "../state/open-store.js";
import type {
  AgentOption,
  CreateDetourOptions,
  DetourEngine,
  PostCommitFailureReport,
  PostCommitFailureResult,
  RunWithOptions,
} from "./detour-api.js";
import { DetourArgumentError, DetourClosedError, requireAgentId } from "./engine-errors.js";
import { withBestEffortBookkeeping } from "./best-effort-bookkeeping.js";
import { EventHub } from "./event-hub.js";
import { RunTracer } from "./tracing.js";
import { createRunTraces } from "./run-traces.js";
import type { TraceStore } from "../ports/trace-store.js";
import { OAuthRefresher } from "./oauth-refresh.js";
import { AgentProfileSource } from "./profile-source.js";
import { providersFromConfig } from "./providers-from-config.js";
import { createHeadroomRecorder } from "../pipe/headroom-recorder.js";
import { resolveBareRunModels, resolveSessionModel } from "./library-model-names.js";
import type { CanonicalRunOptions, CanonicalRunner } from "../pipe/run-canonical.js";
import { discoverCredentials, withDiscoveredOllama, type CredentialDiscovery } from "./discover-credentials.js";
import { createLanes } from "./lanes.js";
import { openReadOnlyStore } from "./read-only-store.js";
import { runnerSettingsFromConfig } from "./runner-settings.js";
import { createFirstTokenPersistence } from "./first-token-persistence.js";
import { hedgingFromConfig } from "./hedging-deps.js";
import { createProfilesApi, createSessionsApi } from "./sessions-api.js";
import {
  checkAgentOption,
  checkCountTokensArguments,
  checkEmbedArguments,
  checkRunArguments,
  checkRunWithArguments,
  checkedProfilesApi,
  checkedSessionsApi,
} from "./argument-checks.js";
import { agentStatus, type DetourStatus } from "./status.js";
import { createSeatKeeping } from "./seat-keeping.js";
import { createUsageRecorder } from "./usage-costs.js";

export type {
  AgentOption,
  CreateDetourOptions,
  Detour,
  DetourEngine,
  DetourProfiles,
  DetourSessions,
  PostCommitFailureReport,
  PostCommitFailureResult,
  RunWithOptions,
  SessionPatch,
} from "./detour-api.js";

const DEFAULT_AGENT = "main";

interface AgentContext {
  agentId: string;
  store: StateStore;
  ownsStore: boolean;
  profileSource: AgentProfileSource;
  deps: RunnerDeps;
}

async function resolveConfig(options: CreateDetourOptions, env: Readonly<Record<string, string | undefined>>, logger: Logger) {
  if (options.config !== undefined) for (const warning of useCatalogueOfHome({ env })) logger.log("warn", warning);
  const { config, warnings } =
    options.config !== undefined
      ? parseConfig(options.config, "the config passed to createDetour")
      : await loadConfig({ configPath: options.configPath, env });
  for (const warning of warnings) logger.log("warn", warning);
  return config;
}

function providerMap(providers: CreateDetourOptions["providers"]): Map<string, Provider> {
  if (!providers) return new Map();
  const list: readonly Provider[] = Array.isArray(providers)
    ? (providers as readonly Provider[])
    : Object.values(providers as Readonly<Record<string, Provider>>);
  return new Map(list.map((provider) => [provider.id, provider]));
}

/** The stores of the engine a reloaded one follows: it uses them and leaves closing them to their owner. */
interface SharedStores {
  store(agentId: string): Promise<StateStore>;
  traceStore(agentId: string): Promise<TraceStore>;
}

/**
 * The one composition root (DESIGN §1): the library, the gateway and the CLI all take their engine from here —
 * the canonical and same-wire lanes, embeddings, count_tokens, discovery and the engine for a reloaded config.
 */
export async function createDetour(options: CreateDetourOptions = {}): Promise<DetourEngine> {
  const config = await resolveConfig(options, options.env ?? process.env, options.logger ?? silentLogger);
  return composeDetour(config, options, undefined);
}

async function composeDetour(config: DetourConfig, options: CreateDetourOptions, shared: SharedStores | undefined): Promise<DetourEngine> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? cryptoRandom;
  const knobs = readEnvKnobs(env);
  for (const warning of knobs.warnings) logger.log("warn", warning);
  const hub = new EventHub(logger);
  hub.on("*", new RunTracer(options.tracerProvider).onEvent);
  const traces = createRunTraces({
    hub,
    clock,
    logger,
    config,
    detourHome: knobs.detourHome,
    // A store handed in by the caller (or a read-only view) keeps its traces in memory: Detour opens no file
    // or connection of its own.
    inMemory: options.store !== undefined || options.readOnly === true,
    record: options.recordTraces !== false,
    ...(shared ? { sharedStoreFor: shared.traceStore } : {}),
  });
  const seats = createSeatKeeping({
    config,
    clock,
    events: hub,
    backend: options.store ? "memory" : config.state.backend,
    detourHome: knobs.detourHome,
    env: env as NodeJS.ProcessEnv,
  });
  const settings: RunnerSettings = runnerSettingsFromConfig(config);
  // R-HG-1…R-HG-4, R-TT-1: one racing state and one sample of first-token times for every run of this engine.
  const hedging = hedgingFromConfig(config);
  // R-TT-1: the learned first-token figures, kept in the store for `detour status` in another process.
  const firstToken = createFirstTokenPersistence({
    config,
    clock,
    logger,
    hedging,
    backend: options.store ? "memory" : config.state.backend,
    readOnly: options.readOnly === true,
    detourHome: knobs.detourHome,
    env: env as NodeJS.ProcessEnv,
  });
  hub.on("attempt_finished", (event) => {
    if (event.firstTokenMs !== undefined) firstToken.noteSample();
  });
  const aliases = modelAliases(config);
  const agents = new Map<string, Promise<AgentContext>>();
  let closed = false;

  async function openStore(agentId: string): Promise<{ store: StateStore; owns: boolean }> {
    if (shared) return { store: await shared.store(agentId), owns: false };
    const given = options.store;
    if (typeof given === "function") return { store: await given(agentId), owns: false };
    if (given) return { store: given, owns: false };
    if (options.readOnly) {
      const view = {
        config,
        detourHome: knobs.detourHome,
        env,
        logger,
        ...(knobs.secretKey !== undefined ? { secretKey: knobs.secretKey } : {}),
      };
      return { store: await openReadOnlyStore(view, agentId), owns: true };
    }
    const store = await openStateStore({
      backend: config.state.backend,
      agentId,
      redis: config.state.redis,
      detourHome: knobs.detourHome,
      secretKey: knobs.secretKey,
      logger,
      env: env as NodeJS.ProcessEnv,
      sessionIdleTtlDays: config.sessions.idleTtlDays,
      sessionMaxCount: config.sessions.maxCount,
    });
    return { store, owns: true };
  }

  async function openAgent(agentId: string): Promise<AgentContext> {
    const { store, owns } = await openStore(agentId);
    const profileSource = new AgentProfileSource({
      store,
      config,
      env,
      discoverEnvCredentials: options.discoverEnvCredentials === true || options.discoverCredentials !== undefined,
      oauthRefresher: new OAuthRefresher({
        store,
        clock,
        logger,
        endpointFor: (provider) => resolveProviderSettings(config, provider)?.oauth,
      }),
    });
    const snapshot = new DecisionSnapshot(store);
    return {
      agentId,
      store,
      ownsStore: owns,
      profileSource,
      deps: {
        agentId,
        store: withBestEffortBookkeeping(store, { agentId, events: hub, snapshot }),
        clock,
        random,
        events: hub,
        settings,
        profiles: profileSource,
        skipCache: new SkipCache(knobs.fallbackSkipTtlMs),
        probeThrottle: new ProbeThrottle(store, agentId),
        snapshot,
        seats: seats.keeperFor(agentId),
        hedging,
      },
    };
  }

  function agent(agentId: string = DEFAULT_AGENT): Promise<AgentContext> {
    if (closed) return Promise.reject(new DetourClosedError());
    requireAgentId(agentId);
    let context = agents.get(agentId);
    if (!context) {
      context = openAgent(agentId);
      agents.set(agentId, context);
      // A failed open must not poison the agent for the next call.
      context.catch(() => agents.delete(agentId));
    }
    return context;
  }

  function resolveUserModel(text: string) {
    return resolveSessionModel(config, text);
  }

  async function runWith<T>(given: RunWithOptions<T>): Promise<RunOutcome<T>> {
    if (typeof given.attempt !== "function") {
      throw new DetourArgumentError("runWith needs an `attempt` function that makes one upstream call.");
    }
    const run = resolveBareRunModels(config, given);
    const context = await agent(run.agentId);
    const session = run.sessionKey !== undefined ? await context.store.getSession(run.sessionKey) : undefined;
    const agentConfig = agentSettings(config, context.agentId);
    const defaults = config.agents.defaults;
    const selection = resolveSelection({
      defaults: {
        primary: defaults.model.primary,
        fallbacks: defaults.model.fallbacks,
        heartbeatModel: defaults.heartbeat.model,
      },
      agent: {
        id: context.agentId,
        ...(agentConfig.model ? { model: agentConfig.model } : {}),
        ...(agentConfig.heartbeatModel !== undefined ? { heartbeat: { model: agentConfig.heartbeatModel } } : {}),
      },
      aliases,
      session,
      request: {
        model: run.model,
        fallbacks: run.fallbacks,
        strictUserSelection: run.strictModel,
      },
      source: run.source,
      cron: run.cron,
    });
    return runWithModelFallback(context.deps, {
      runId: randomUUID(),
      sessionKey: run.sessionKey,
      selection: run.candidateFilter ? narrowSelection(selection, run.candidateFilter) : selection,
      signal: run.signal,
      attempt: run.attempt,
      attemptTimeoutMs: run.attemptTimeoutMs,
      request: run.requestFacts,
      ...(run.continuations ? { continuations: run.continuations } : {}),
      ...(run.reportsProgress ? { reportsProgress: true } : {}),
      ...(run.traceFacts ? { traceFacts: run.traceFacts } : {}),
      // Cron and heartbeat models are job choices; they never become the conversation's override.
      persistSession: run.source === undefined,
    });
  }

  async function reportPostCommitFailure(report: PostCommitFailureReport): Promise<PostCommitFailureResult> {
    if (report.callerAborted) return { recorded: false };
    const context = await agent(report.agentId);
    const now = clock.now();
    const classification = classifyAttemptError(report.error, report.provider, now);
    const stats = await recordProfileFailure(
      {
        store: context.store,
        events: hub,
        cooldowns: settings.cooldowns,
        providerRecordsCooldowns: (provider) => settings.providerRecordsCooldowns(provider),
      },
      {
        agentId: context.agentId,
        runId: report.runId,
        provider: report.provider,
        model: report.model,
        profileId: report.profileId,
        classification,
        now,
      },
    );
    return { classification, recorded: stats !== undefined };
  }

  const sessions = createSessionsApi({ agent, events: hub, resolveUserModel, clock, idleTtlDays: config.sessions.idleTtlDays });
  const profiles = createProfilesApi({ agent, clock });

  async function status(opts?: AgentOption): Promise<DetourStatus> {
    const ids = opts?.agentId !== undefined ? [opts.agentId] : [...new Set([DEFAULT_AGENT, ...agents.keys()])];
    const now = clock.now();
    const statuses = await Promise.all(
      ids.map(async (id) => {
        const context = await agent(id);
        return agentStatus({
          agentId: context.agentId,
          store: context.store,
          profiles: context.profileSource,
          now,
          minRemaining: config.auth.headroom.minRemaining,
          seats: (profiles) => seats.seatStatus(context.agentId, profiles),
        });
      }),
    );
    return { now, agents: statuses, queueLength: seats.queue.length, firstToken: await firstToken.rows(now) };
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    const contexts = await Promise.allSettled(agents.values());
    agents.clear();
    await traces.close();
    await seats.close();
    await firstToken.close();
    await Promise.all(
      contexts.flatMap((settled) => (settled.status === "fulfilled" && settled.value.ownsStore ? [settled.value.store.close()] : [])),
    );
  }

  const agentStore = async (agentId?: string) => (await agent(agentId)).store;
  let discovery: CredentialDiscovery | undefined;
  if (options.discoverCredentials) {
    try {
      discovery = await discoverCredentials({ config, store: await agentStore(options.discoverCredentials.agentId), env });
    } catch (error) {
      await close();
      throw error;
    }
  }
  // The providers (and every lane over them) reach a discovered local Ollama; `detour.config` stays as given.
  const providerConfig = discovery ? withDiscoveredOllama(config, discovery) : config;
  const providers = providerMap(options.providers ?? providersFromConfig(providerConfig));
  const headroom = createHeadroomRecorder({ store: agentStore, clock, logger, events: hub, defaultAgentId: DEFAULT_AGENT });
  const lanes = createLanes({ detour: { runWith, reportPostCommitFailure }, config: providerConfig, providers, clock, headroom });
  const canonicalRunner = lanes.canonical;
  const { embed, countTokens } = lanes;

  const recordUsage = createUsageRecorder({
    config,
    store: agentStore,
    clock,
    events: hub,
    defaultAgentId: DEFAULT_AGENT,
  });

  // Cost honesty (hedging): a raced loser closed before it answered is charged the input tokens its provider
  // stated before the close, else its estimated input tokens, to spend and to the profile's headroom (the
  // provider counted the request even though it never answered). Only an aborted attempt carries them.
  hub.on("attempt_finished", (event) => {
    if (event.outcome === "aborted" && event.inputTokens !== undefined && event.profileId !== null) {
      recordUsage({
        agentId: event.agentId,
        provider: event.provider,
        model: event.model,
        profileId: event.profileId,
        usage: { inputTokens: event.inputTokens, outputTokens: 0 },
      });
      chargeLoserHeadroom(event.agentId, event.profileId, {
        model: event.model,
        inputTokens: event.inputTokens,
        sentAt: clock.now() - event.durationMs,
      });
    }
  });
  function chargeLoserHeadroom(agentId: string, profileId: string, request: UnreportedRequest): void {
    void (async () => {
      const store = await agentStore(agentId);
      const now = clock.now();
      const readings = (await store.headroomReadings([profileId], now))[profileId] ?? [];
      const charged = chargeUnreportedRequest(readings, request, now);
      if (charged.length > 0) await store.recordHeadroom(profileId, charged, now);
    })().catch((error: unknown) =>
      // Best effort: the provider's next answer restates the window anyway.
      logger.log("warn", "Could not charge a raced attempt to its profile's headroom", {
        profileId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  const on: EventHub["on"] = hub.on.bind(hub);
  // Public entry points check their arguments first: a wrong shape is named, and no provider is called.
  const checkedRun = ((options: CanonicalRunOptions) => {
    checkRunArguments(options);
    return canonicalRunner.run(options);
  }) as CanonicalRunner["run"];
  return {
    config,
    providers,
    runWith: (options) => {
      checkRunWithArguments(options);
      return runWith(options);
    },
    run: checkedRun,
    reportPostCommitFailure,
    sessions: checkedSessionsApi(sessions),
    profiles: checkedProfilesApi(profiles),
    status: (options) => {
      checkAgentOption(options, "detour.status");
      return status(options);
    },
    recordUsage,
    embed: (options) => {
      checkEmbedArguments(options);
      return embed(options);
    },
    countTokens: (options) => {
      checkCountTokensArguments(options);
      return countTokens(options);
    },
    on,
    events: { on },
    store: agentStore,
    traces: traces.api,
    close,
    passThrough: lanes.passThrough,
    headroom,
    discovery,
    reload: (next) => {
      if (closed) return Promise.reject(new DetourClosedError());
      // A chain of reloads always follows the engine that owns the stores.
      return composeDetour(next, options, shared ?? { store: agentStore, traceStore: traces.storeFor });
    },
  };
}
