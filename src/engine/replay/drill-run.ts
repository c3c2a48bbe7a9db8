/**
 * Runs one drill (R-OB-6) against a config through the replay engine, and judges it: what users would have
 * seen (answered, waits, notices, cost) and, when it went badly, which config change would have helped — each
 * change tried by replaying the drill again with it, so the advice names the failures it would have left.
 */
import { parseConfig, type DetourConfig } from "../../config/index.js";
import { parseModelRef } from "../../core/candidate-chain.js";
import type { RunTraceV1 } from "../../core/run-trace.js";
import { modelAliases } from "../../config/index.js";
import { drillTraces, type DrillDefinition, type DrillTarget } from "./drills.js";
import { configPricing, replayTraces } from "./replay-engine.js";
import type { ReplayConfigReport } from "./replay-report.js";
import { DetourError, ERROR_CODES } from "../../core/errors.js";

/** Drills start at a fixed instant: the same config gives the same report on every machine, every day. */
export const DRILL_START_MS = Date.UTC(2026, 0, 5, 9, 0, 0);
/** A run's user waited this long for nothing (p99) and the drill is at best degraded. */
const SLOW_WAIT_MS = 30_000;

export type DrillVerdict = "held" | "degraded" | "failed";

export interface DrillAdvice {
  /** What to change, in words, with the numbers of this drill. */
  text: string;
  /** The same drill replayed with the change. */
  failedPercentWithChange: number;
  addedWaitMsP99WithChange: number;
}

export interface DrillOutcome {
  drill: string;
  target: string;
  verdict: DrillVerdict;
  failedPercent: number;
  report: ReplayConfigReport;
  /** The drill's runs as the config replayed them. */
  traces: RunTraceV1[];
  /** Empty when the config held. */
  advice: DrillAdvice[];
}

export class DrillTargetError extends DetourError {
  readonly code = ERROR_CODES.drillNoPrimary;
  constructor() {
    super(
      'A drill runs against the config\'s primary model, and this config names none: set agents.defaults.model.primary (for example "anthropic/claude-sonnet-4-6").',
    );
  }
}

export function drillTarget(config: DetourConfig): DrillTarget {
  const primaryText = config.agents.defaults.model.primary;
  if (primaryText === undefined) throw new DrillTargetError();
  const ref = parseModelRef(modelAliases(config)[primaryText] ?? primaryText);
  if (!ref) throw new DrillTargetError();
  const own = Object.entries(config.auth.profiles).find(([, profile]) => profile.provider === ref.provider);
  return {
    requestedModel: `${ref.provider}/${ref.model}`,
    provider: ref.provider,
    model: ref.model,
    profileId: own ? own[0] : `${ref.provider}:env`,
  };
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

function verdictOf(report: ReplayConfigReport): DrillVerdict {
  const failed = percent(report.failed, report.runs);
  if (failed > 5) return "failed";
  if (failed > 1 || report.addedWaitMsP99 > SLOW_WAIT_MS) return "degraded";
  return "held";
}

/** A config as plain input again, to change one thing and parse it like a user's file. */
function configInput(config: DetourConfig): Record<string, any> {
  return JSON.parse(JSON.stringify(config)) as Record<string, any>;
}

function otherProviderModel(provider: string): string {
  return provider === "anthropic" ? "openai/gpt-5" : "anthropic/claude-sonnet-4-6";
}

interface Change {
  /** Words with `{after}` standing for the drill's outcome with the change. */
  text: (before: ReplayConfigReport) => string;
  apply(input: Record<string, any>): void;
}

function candidateChanges(drill: DrillDefinition, config: DetourConfig, target: DrillTarget): Change[] {
  const changes: Change[] = [];
  const fallbacks = config.agents.defaults.model.fallbacks;
  const elsewhere = fallbacks.filter((ref) => !ref.startsWith(`${target.provider}/`));
  const primary = target.requestedModel;
  if (elsewhere.length === 0) {
    const suggested = otherProviderModel(target.provider);
    const suggestedProvider = suggested.split("/")[0]!;
    changes.push({
      text: (before) =>
        fallbacks.length === 0
          ? `no fallback for ${primary}: ${percent(before.failed, before.runs)} % failed — add one on another provider, e.g. agents.defaults.model.fallbacks: ["${suggested}"]`
          : `every fallback of ${primary} is on ${target.provider}: ${percent(before.failed, before.runs)} % failed — add one on another provider, e.g. "${suggested}"`,
      apply(input) {
        input.agents.defaults.model.fallbacks = [...fallbacks, suggested];
        const profiles = input.auth.profiles as Record<string, { provider: string }>;
        if (Object.keys(profiles).length > 0 && !Object.values(profiles).some((profile) => profile.provider === suggestedProvider)) {
          profiles[`${suggestedProvider}:drill`] = {
            provider: suggestedProvider,
            mode: "api_key",
            keyRef: { env: "DRILL_FALLBACK_KEY" },
          } as never;
        }
      },
    });
  }
  const keys = Object.values(config.auth.profiles).filter((profile) => profile.provider === target.provider).length;
  if (drill.scope === "key" && keys <= 1) {
    changes.push({
      text: (before) =>
        `one key for ${target.provider}: ${percent(before.failed, before.runs)} % failed — add a second key to auth.profiles (from another account for a billing cut-off)`,
      apply(input) {
        const profiles = input.auth.profiles as Record<string, unknown>;
        if (keys === 0)
          profiles[`${target.provider}:env`] = { provider: target.provider, mode: "api_key", keyRef: { env: "DRILL_SPARE_KEY_1" } };
        profiles[`${target.provider}:second`] = { provider: target.provider, mode: "api_key", keyRef: { env: "DRILL_SPARE_KEY_2" } };
      },
    });
  }
  if (drill.streamed && config.gateway.streamContinuations === 0) {
    changes.push({
      text: (before) =>
        `cut streams end the answer: ${percent(before.failed, before.runs)} % failed — set gateway.streamContinuations: 1 to continue them elsewhere`,
      apply(input) {
        input.gateway.streamContinuations = 1;
      },
    });
  }
  if (drill.call.code === null && drill.call.reason === "timeout") {
    const timeoutSeconds = config.models.providers[target.provider]?.timeoutSeconds;
    changes.push({
      text: (before) =>
        `calls to a silent ${target.provider} wait for the timeout: added wait p99 ${Math.round(before.addedWaitMsP99 / 1000)} s — set models.providers.${target.provider}.timeoutSeconds: 20${timeoutSeconds !== undefined ? ` (now ${timeoutSeconds})` : ""}`,
      apply(input) {
        input.models.providers[target.provider] = { ...(input.models.providers[target.provider] ?? {}), timeoutSeconds: 20 };
      },
    });
  }
  return changes;
}

export async function runDrill(drill: DrillDefinition, config: DetourConfig, name: string): Promise<DrillOutcome> {
  const target = drillTarget(config);
  const pricing = configPricing(config);
  const traces = drillTraces(drill, target, DRILL_START_MS, (usage) => pricing(target.provider, target.model, usage));
  const { report, traces: replayed } = await replayTraces({ name, config, traces });
  const verdict = verdictOf(report);
  const advice: DrillAdvice[] = [];
  if (verdict !== "held") {
    for (const change of candidateChanges(drill, config, target)) {
      const input = configInput(config);
      change.apply(input);
      const { config: changed } = parseConfig(input, `${name} with the drill's change`);
      const after = (await replayTraces({ name, config: changed, traces })).report;
      // A change helps when fewer runs fail, or as many fail but users wait less; never when more fail.
      const better = after.failed < report.failed || (after.failed === report.failed && after.addedWaitMsP99 < report.addedWaitMsP99);
      if (!better) continue;
      advice.push({
        text: `${change.text(report)} (${percent(after.failed, after.runs)} % failed with it in this drill)`,
        failedPercentWithChange: percent(after.failed, after.runs),
        addedWaitMsP99WithChange: after.addedWaitMsP99,
      });
    }
  }
  return {
    drill: drill.name,
    target: target.requestedModel,
    verdict,
    failedPercent: percent(report.failed, report.runs),
    report,
    traces: replayed,
    advice,
  };
}
