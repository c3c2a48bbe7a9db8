/**
 * R-GW-7: what an answer cost, and the spend per profile that `detour status` shows. Prices come from the
 * config (`models.providers.<id>.models[].cost`) or else the catalogue; a model without known prices has no
 * cost (never a guess). Pricing is synchronous arithmetic; the spend write is started and not awaited, and a
 * store that refuses it becomes a `state_bookkeeping_failed` event (R-SB-5) — never a slower or failed answer.
 */
import { describeModel, type ModelPrices } from "../catalogue/model-catalogue.js";
import { costOfUsage, type PricedUsage } from "../catalogue/prices.js";
import { modelDeclaration, type DetourConfig } from "../config/index.js";
import { isRecordableCost } from "../core/spend.js";
import type { Clock } from "../ports/clock.js";
import type { EventSink } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";

export interface UsageReport {
  agentId?: string;
  provider: string;
  model: string;
  /** The profile that answered; absent for a keyless provider (then no spend is kept). */
  profileId?: string;
  usage: PricedUsage;
  /** The run that answered: its trace gets the tokens and the cost (a `usage_recorded` event). */
  runId?: string;
}

/** Prices the usage and charges it to the profile; returns the cost in US dollars, or undefined without prices. */
export type UsageRecorder = (report: UsageReport) => number | undefined;

/** A bounded memo: lookups are keyed by configured models, but a caller may name anything. */
const PRICE_MEMO_LIMIT = 1024;

export function createUsageRecorder(options: {
  config: DetourConfig;
  store: (agentId: string | undefined) => Promise<StateStore>;
  clock: Clock;
  events: EventSink;
  defaultAgentId: string;
}): UsageRecorder {
  const prices = new Map<string, ModelPrices | null>();
  const pricesOf = (provider: string, model: string): ModelPrices | undefined => {
    const key = `${provider}/${model}`;
    let found = prices.get(key);
    if (found === undefined) {
      found = describeModel(provider, model, modelDeclaration(options.config, provider, model)).prices ?? null;
      if (prices.size >= PRICE_MEMO_LIMIT) prices.delete(prices.keys().next().value as string);
      prices.set(key, found);
    }
    return found ?? undefined;
  };

  const announce = (report: UsageReport, costUsd: number | undefined): void => {
    if (report.runId === undefined) return;
    options.events.emit({
      type: "usage_recorded",
      runId: report.runId,
      agentId: report.agentId ?? options.defaultAgentId,
      provider: report.provider,
      model: report.model,
      profileId: report.profileId ?? null,
      inputTokens: report.usage.inputTokens,
      outputTokens: report.usage.outputTokens,
      costUsd: costUsd ?? null,
    });
  };

  return (report) => {
    const known = pricesOf(report.provider, report.model);
    if (!known) {
      announce(report, undefined);
      return undefined;
    }
    const costUsd = costOfUsage(report.usage, known);
    announce(report, costUsd);
    const profileId = report.profileId;
    if (profileId !== undefined && isRecordableCost(costUsd)) {
      const now = options.clock.now();
      const agentId = report.agentId ?? options.defaultAgentId;
      // R-SB-5: best effort, after the answer — the write starts on the next turn of the event loop, so a
      // synchronous backend (SQLite) never runs between the answer's bytes and the socket.
      void new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => options.store(agentId))
        .then((store) => store.recordSpend(profileId, costUsd, now))
        .catch((error: unknown) =>
          options.events.emit({
            type: "state_bookkeeping_failed",
            agentId,
            operation: "recordSpend",
            profileId,
            error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          }),
        );
    }
    return costUsd;
  };
}
