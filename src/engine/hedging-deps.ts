/**
 * The engine's racing state (R-HG-1…R-HG-4) and learned first-token deadlines (R-TT-1), built once per engine
 * from `agents.defaults.modelFailover.hedging` and shared by every run and agent: the first-token samples per
 * model, the per-provider hedge budget and the silent routes are facts about providers, not about agents.
 */
import type { FirstTokenSummaryRow } from "../ports/first-token-summary.js";
import type { DetourConfig } from "../config/index.js";
import { FirstTokenSamples } from "../core/hedging/first-token-samples.js";
import { HedgeBudget } from "../core/hedging/hedge-budget.js";
import { DEADLINE_SAMPLES_NEEDED, hedgeAfterMs, learnedFirstTokenDeadlineMs } from "../core/hedging/hedge-timing.js";
import { SilentRoutes } from "../core/hedging/silent-route.js";
import type { HedgingDeps } from "../runner/hedge-race.js";
import { firstTokenTimeoutMs, type FirstTokenSettings } from "../pipe/first-token-timeout.js";

export function hedgingFromConfig(config: DetourConfig, firstToken: Omit<FirstTokenSettings, "ttftTimeoutSeconds"> = {}): HedgingDeps {
  const hedging = config.agents.defaults.modelFailover.hedging;
  const samples = new FirstTokenSamples();
  const configuredSeconds = config.gateway.ttftTimeoutSeconds;
  return {
    settings: {
      enabled: hedging.enabled && hedging.maxExtra > 0,
      maxExtra: hedging.maxExtra,
      ...(hedging.afterMs !== undefined ? { afterMs: hedging.afterMs } : {}),
    },
    samples,
    budget: new HedgeBudget({ budgetPercent: hedging.budgetPercent, burst: hedging.burst }),
    silent: new SilentRoutes(),
    learnedDeadlineMs: (provider, model) => {
      const stats = samples.stats(provider, model);
      if (configuredSeconds !== undefined || !stats || stats.count < DEADLINE_SAMPLES_NEEDED) return undefined;
      return learnedFirstTokenDeadlineMs({ stats, staticDefaultMs: firstTokenTimeoutMs(firstToken, { provider, model }) });
    },
    firstTokenDeadlineMs: (provider, model) =>
      learnedFirstTokenDeadlineMs({
        stats: samples.stats(provider, model),
        staticDefaultMs: firstTokenTimeoutMs(firstToken, { provider, model }),
        ...(configuredSeconds !== undefined ? { configuredMs: configuredSeconds * 1000 } : {}),
      }),
  };
}

/** One model's learned first-token figures, as `/status`, `detour status` and the dashboard show them (R-TT-1, R-HG-2). */
export type FirstTokenStatus = FirstTokenSummaryRow;

export function firstTokenStatus(hedging: HedgingDeps): FirstTokenStatus[] {
  const rows: FirstTokenStatus[] = [];
  for (const { provider, model, stats } of hedging.samples.models()) {
    const deadlineMs = hedging.firstTokenDeadlineMs(provider, model);
    rows.push({
      provider,
      model,
      samples: stats.count,
      p50Ms: stats.p50Ms,
      p95Ms: stats.p95Ms,
      p99Ms: stats.p99Ms,
      deadlineMs,
      hedgeAfterMs: hedging.settings.enabled
        ? Math.round(hedgeAfterMs({ stats, ttftDeadlineMs: deadlineMs, configuredAfterMs: hedging.settings.afterMs }))
        : null,
    });
  }
  return rows.sort((a, b) => `${a.provider}/${a.model}`.localeCompare(`${b.provider}/${b.model}`));
}
