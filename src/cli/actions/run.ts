/**
 * What `detour run "<prompt>"` does (R-CL-1): one prompt through the engine. The answer goes to stdout; the
 * notice, and with `--verbose` the attempts, go to stderr. `--model` is a strict one-off user selection (R-CH-2): that
 * model, no fallback. With no configured or stored profile, credentials are discovered (R-CF-5).
 */
import type { Command } from "commander";
import { FailoverError, FallbackSummaryError, type AttemptRecord } from "../../core/errors.js";
import { DEFAULT_AGENT_ID, type DetourConfig } from "../../config/index.js";
import type { CredentialDiscovery } from "../../engine/index.js";
import type { CanonicalResponse } from "../../ports/canonical.js";
import { attemptLine } from "../views/attempts-view.js";
import type { CliDeps } from "../cli-deps.js";
import { ReportedFailure, describeError, exitCodeForError } from "../cli-errors.js";
import { commandContext, loadCliConfig, withDetour, type CommandContext } from "../command-context.js";
import { CliUsageError } from "../output.js";
import { createProgress } from "../progress.js";
import { checkedModelText } from "../model-flag.js";
import { readAll } from "../read-secret.js";
import { withoutEvents } from "../stderr-logger.js";

const MAX_PROMPT_BYTES = 1024 * 1024;

export interface RunFlags {
  agent: string;
  session?: string;
  model?: string;
  timeoutSeconds?: number;
  json?: boolean;
  verbose?: boolean;
}

function answerText(response: CanonicalResponse): string {
  return response.content.map((part) => (part.type === "text" ? part.text : `[tool call ${part.name}(${part.arguments})]`)).join("");
}

/** `--timeout-seconds` bounds the whole run like agents.defaults.timeoutSeconds, so it fails over as `timeout`. */
function withRunTimeout(config: DetourConfig, timeoutSeconds: number | undefined): DetourConfig {
  if (timeoutSeconds === undefined) return config;
  const copy = structuredClone(config) as { agents: { defaults: { timeoutSeconds: number } } };
  copy.agents.defaults.timeoutSeconds = timeoutSeconds;
  return copy as unknown as DetourConfig;
}

function failureJson(error: unknown): Record<string, unknown> {
  const base = { code: (error as { code?: unknown }).code ?? null, message: describeError(error) };
  if (error instanceof FallbackSummaryError) {
    return { ...base, attempts: error.attempts, soonestCooldownExpiry: error.soonestCooldownExpiry ?? null };
  }
  if (error instanceof FailoverError) {
    return {
      ...base,
      reason: error.reason,
      provider: error.provider ?? null,
      model: error.model ?? null,
      profileId: error.profileId ?? null,
      status: error.status ?? null,
    };
  }
  return base;
}

function printAttempts(context: CommandContext, attempts: readonly AttemptRecord[]): void {
  if (attempts.length === 0) return;
  context.out.error("Attempts:");
  for (const attempt of attempts) context.out.error(attemptLine(attempt));
}

/** No model anywhere: say how to pick one, naming what discovery found. */
function modelHint(config: DetourConfig, discovery: CredentialDiscovery, flags: RunFlags): string | undefined {
  if (flags.model !== undefined || config.agents.defaults.model.primary !== undefined) return undefined;
  if (config.agents.list.some((agent) => agent.id === flags.agent && agent.model !== undefined)) return undefined;
  if (discovery.kind === "discovered" && discovery.suggestedModel) return discovery.suggestedModel;
  const providers = discovery.kind === "discovered" ? discovery.envProfiles.map((profile) => profile.provider) : [];
  throw new CliUsageError(
    "No model is selected: pass --model provider/model" +
      (providers.length > 0 ? ` (credentials found for: ${[...new Set(providers)].join(", ")})` : "") +
      " or set agents.defaults.model.primary in detour.json5.",
  );
}

export async function runPrompt(deps: CliDeps, command: Command, promptArgument: string, flags: RunFlags): Promise<void> {
  const base = commandContext(deps, command, flags.verbose ? "info" : "warn");
  // The notice and the failure are printed below in their own words; their log lines would repeat them.
  const context: CommandContext = { ...base, logger: withoutEvents(base.logger, ["notice", "run_finished"]) };
  const prompt = promptArgument === "-" ? await readAll(deps.stdin, MAX_PROMPT_BYTES) : promptArgument;
  if (prompt.trim() === "") throw new CliUsageError("The prompt is empty.");
  const loaded = await loadCliConfig(context);
  // As at the gateway, an agent must be configured (or `main`): a typo must not create a store of its own.
  const knownAgents = [...new Set([DEFAULT_AGENT_ID, ...loaded.config.agents.list.map((agent) => agent.id)])];
  if (!knownAgents.includes(flags.agent)) {
    throw new CliUsageError(
      `--agent: no agent ${JSON.stringify(flags.agent)} is configured; known agents: ${knownAgents.join(", ")} (add it to agents.list to use it).`,
    );
  }
  // Before discovery and the store: a typo in --model is bad input, not an upstream call or a missing key.
  const requestedModel = flags.model !== undefined ? checkedModelText(loaded.config, flags.model, flags.agent) : undefined;
  const config = withRunTimeout(loaded.config, flags.timeoutSeconds);
  const progress = createProgress(deps.stderr, { quietOffTty: true, env: deps.env });
  const discover = { discoverCredentials: { agentId: flags.agent }, config: { ...loaded, config } };
  await withDetour(context, discover, async ({ detour }) => {
    const discovery = detour.discovery ?? { kind: "configured" };
    if (flags.verbose && discovery.kind === "discovered") {
      for (const found of discovery.envProfiles) context.out.error(`Using ${found.profileId} from $${found.variable}.`);
      if (discovery.ollama) context.out.error(`Using the local Ollama at ${discovery.ollama.baseUrl}.`);
    }
    const suggestedModel = modelHint(config, discovery, flags);
    const unsubscribe = detour.on("attempt_started", (event) =>
      progress.step(`Asking ${event.provider}/${event.model}${event.profileId ? ` [${event.profileId}]` : ""}…`),
    );
    try {
      const model = requestedModel ?? suggestedModel;
      const outcome = await detour.run({
        agentId: flags.agent,
        ...(flags.session !== undefined ? { sessionKey: flags.session } : {}),
        ...(model !== undefined ? { model } : {}),
        ...(flags.model !== undefined ? { strictModel: true } : {}),
        request: { messages: [{ role: "user", content: [{ type: "text", text: prompt }] }] },
      });
      progress.done();
      const text = answerText(outcome.result);
      if (flags.json) {
        context.out.json({
          text,
          provider: outcome.provider,
          model: outcome.model,
          profileId: outcome.profileId ?? null,
          attempts: outcome.attempts,
          notice: outcome.notice ?? null,
        });
      } else {
        context.out.line(text);
      }
      if (outcome.notice) context.out.error(outcome.notice);
      if (flags.verbose) {
        printAttempts(context, outcome.attempts);
        context.out.error(`Answered by ${outcome.provider}/${outcome.model}${outcome.profileId ? ` [${outcome.profileId}]` : ""}.`);
      }
    } catch (error) {
      progress.fail();
      if (flags.verbose && error instanceof FallbackSummaryError) printAttempts(context, error.attempts);
      if (!flags.json) throw error;
      context.out.json({ error: failureJson(error) });
      context.out.error(`detour: ${describeError(error)}`);
      throw new ReportedFailure(exitCodeForError(error));
    } finally {
      unsubscribe();
    }
  });
}
