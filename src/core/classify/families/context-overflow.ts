/**
 * context_overflow (R-EC-5): the request does not fit the model's window. Checked before everything else
 * (R-EC-2) because compaction, not failover, handles it. Per-minute token quotas also talk about "tokens"
 * and "request too large"; those are rate limits, so every row carries the TPM guard.
 */
import type { MessageRule } from "../rule-types.js";

/** OpenAI/Groq/Anthropic per-minute token quotas: never a context overflow. */
const PER_MINUTE_TOKEN_QUOTA = /tokens per min|\bTPM\b/i;

const row = (id: string, pattern: RegExp, extra: Partial<MessageRule> = {}): MessageRule => ({
  id: `context_overflow/${id}`,
  reason: "context_overflow",
  pattern,
  unless: PER_MINUTE_TOKEN_QUOTA,
  ...extra,
});

export const CONTEXT_OVERFLOW_RULES: readonly MessageRule[] = [
  row("request-too-large", /\brequest_too_large\b/i),
  row("context-length-exceeded", /\bcontext[ _]length[ _]exceeded\b/i),
  row("maximum-context-length", /\bmaximum context length\b/i),
  row("prompt-too-long", /\bprompt is too long\b/i),
  row("input-token-count", /\binput token count\b[^\n]{0,40}?\bexceeds the maximum number of (?:input )?tokens\b/i),
  row("input-exceeds-max-tokens", /\binput exceeds the maximum number of tokens\b/i),
  row("input-too-long-for-model", /\binput (?:is )?too long for (?:the )?(?:requested )?model\b/i),
  row("context-window-exceeded", /context[ _]window[ _]exceeded\b|\bexceeds the context window\b/i),
  row("maximum-prompt-length", /\bmaximum prompt length is\b/i),
  row("available-context-size", /\bexceeds (?:the )?available context size\b|\bconfigured context size is\b/i),
  row(
    "exceeds-context-window",
    /\bexceeds? (?:the )?(?:model(?:'s)? )?(?:maximum )?context (?:window|length|size|limit)\b|\brequest exceeds the maximum size\b|\btoo many input tokens\b/i,
  ),
  // Moonshot "Your request exceeded model token limit: 262144 (requested: 300000)", Cohere "total tokens
  // exceeds the model's maximum limit of 4096".
  row(
    "model-token-limit",
    /\bexceed(?:s|ed)? (?:the )?model(?:'s|’s)? (?:maximum )?(?:token|context) limit\b|\btotal tokens?\b[^\n]{0,20}?\bexceed(?:s|ed)? (?:the )?model(?:'s|’s)? maximum\b/i,
  ),
  // Runtimes and relays that name the reason itself: "Context overflow: prompt of 210k tokens …".
  row("context-overflow-named", /\bcontext[ _]overflow\b/i),
  // Chinese providers: "上下文超出限制", "上下文长度超过模型最大长度", "输入长度超过模型上下文".
  row(
    "cjk-context",
    /上下文(?:长度|窗口)?(?:超出|超过|超限|溢出)|(?:超出|超过)(?:了)?(?:模型)?(?:的)?(?:最大)?上下文|输入(?:长度|内容)?(?:超出|超过)(?:了)?(?:模型)?(?:的)?(?:最大)?(?:长度|限制)/,
  ),
  // A 413 whose text says the request is too large (Anthropic `request_too_large` page, proxies' own 413).
  row("payload-too-large-413", /\btoo large\b/i, { statuses: [413] }),
];
