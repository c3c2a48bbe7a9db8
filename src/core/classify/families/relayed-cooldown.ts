/**
 * rate_limit, relayed cooldowns (R-EC-5): another gateway in front of the provider (LiteLLM, OpenClaw,
 * CLIProxyAPI, one-api style relays) answering that every credential or deployment it has for the model
 * is cooling down. That is the relay's rate-limit state, not an auth problem, even when it names
 * "credentials" or "auth profiles"; read before `auth` for that reason.
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `rate_limit/${id}`, reason: "rate_limit", pattern });

export const RELAYED_COOLDOWN_RULES: readonly MessageRule[] = [
  row("cooling-down", /\bcooling[ _-]?down\b|\bcool[ _-]?down\b|\bmodel_cooldown\b/i),
  row("no-available-profile", /\bno (?:available|usable|healthy) (?:auth )?(?:profiles?|credentials?|keys?|accounts?)\b/i),
  row("no-deployments-available", /\bno deployments? available\b|\ball deployments? (?:are )?(?:busy|rate[ -]?limited|unavailable)\b/i),
];
