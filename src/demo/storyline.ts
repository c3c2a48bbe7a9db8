/**
 * The demo's script, as data: steps, each a list of actions — inject or clear a fault in a mock, give a
 * key a rate-limit budget or lift it, skip the demo clock ahead, or send one chat turn (streamed or not)
 * through the gateway. The driver executes it; what Detour does in response is never scripted, only observed.
 */
import type { MockBudgetsInput, MockRuleInput } from "../testing/mock-provider/index.js";
import { DEMO_PROFILES } from "./demo-setup.js";
import { whileFaulted, type StepFault } from "./faulted-actions.js";
import type { StepId } from "./demo-events.js";
import { HEADROOM_STEP } from "./storyline-headroom.js";
import { HEDGING_STEP } from "./storyline-hedging.js";
import { SEATS_STEP } from "./storyline-seats.js";

/** Sticky until cleared (`repeat-last`), like a real outage or an empty credit balance. */
export interface FaultSpec {
  name: string;
  provider: "openai" | "anthropic";
  profileId?: string;
  fault: string;
  description: string;
  rule: MockRuleInput;
}

/** A rate-limit budget on one key of the OpenAI mock, in force until lifted (docs/mock-provider.md). */
export interface BudgetSpec {
  name: string;
  provider: "openai";
  profileId: string;
  /** The placeholder key the mock knows the profile by. */
  key: string;
  description: string;
  budget: MockBudgetsInput[string];
}

export type StoryAction =
  | { kind: "inject"; fault: FaultSpec }
  | { kind: "clear"; fault: FaultSpec; description: string }
  | { kind: "set-budget"; budget: BudgetSpec }
  | { kind: "lift-budget"; budget: BudgetSpec; description: string }
  | { kind: "skip-time"; ms: number; why: string }
  /** `session`: another chat session than the demo's main one (default); `stream`: the turn is streamed. */
  | { kind: "chat"; message: string; note: string; session?: string; stream?: boolean }
  /** `count` sub-agents, each in its own session `<sessionPrefix>-<n>`, send one turn each, all at once. */
  | { kind: "fan-out"; count: number; sessionPrefix: string; message: string; note: string };

export interface StoryStep {
  id: StepId;
  title: string;
  detail: string;
  actions: readonly StoryAction[];
}

export const RATE_LIMIT_RETRY_AFTER_SECONDS = 30;
/** R-SO-3: a session on an auto fallback re-probes its primary at most this often. */
export const PRIMARY_PROBE_INTERVAL_MS = 5 * 60 * 1000;

export const ALPHA_RATE_LIMIT: FaultSpec = {
  name: "alpha-rate-limit",
  provider: "openai",
  profileId: DEMO_PROFILES.alpha.id,
  fault: "rate-limit",
  description: `${DEMO_PROFILES.alpha.id} answers 429 Too Many Requests with Retry-After: ${RATE_LIMIT_RETRY_AFTER_SECONDS}s`,
  rule: {
    name: "alpha-rate-limit",
    match: { key: DEMO_PROFILES.alpha.key },
    steps: [{ fault: "rate-limit", retryAfterSeconds: RATE_LIMIT_RETRY_AFTER_SECONDS }],
    then: "repeat-last",
  },
};

export const BETA_BILLING: FaultSpec = {
  name: "beta-billing",
  provider: "openai",
  profileId: DEMO_PROFILES.beta.id,
  fault: "billing",
  description: `${DEMO_PROFILES.beta.id} runs out of credits: 402 Payment Required`,
  rule: { name: "beta-billing", match: { key: DEMO_PROFILES.beta.key }, steps: ["billing"], then: "repeat-last" },
};

export const OPENAI_OUTAGE: FaultSpec = {
  name: "openai-outage",
  provider: "openai",
  fault: "overloaded",
  description: "OpenAI is down: every key gets 529 Overloaded",
  rule: { name: "openai-outage", match: { api: "openai" }, steps: ["overloaded"], then: "repeat-last" },
};

const chat = (message: string, note: string): StoryAction => ({ kind: "chat", message, note });

/** The story both mocks tell in the last step, so the continued answer can be checked word for word. */
export const DEMO_STORY =
  "Once upon a time a small fox lived at the edge of a quiet forest. Every morning it walked to the river, " +
  "counted the stones on the bank and listened to the water telling stories of the mountains far away.";

export const ALPHA_STREAM_CUT: FaultSpec = {
  name: "alpha-stream-cut",
  provider: "openai",
  profileId: DEMO_PROFILES.alpha.id,
  fault: "stream-cut",
  description: `${DEMO_PROFILES.alpha.id}'s streams are cut after 12 words`,
  rule: {
    name: "alpha-stream-cut",
    match: { key: DEMO_PROFILES.alpha.key },
    answer: DEMO_STORY,
    steps: [{ fault: "stream-cut", afterTokens: 12 }],
    then: "repeat-last",
  },
};

export const CLAUDE_TELLS_THE_STORY: FaultSpec = {
  name: "claude-story",
  provider: "anthropic",
  fault: "ok",
  description: "anthropic/claude-sonnet-4-5 knows the same story (and, asked to go on, starts it over)",
  rule: { name: "claude-story", answer: DEMO_STORY, continuation: { style: "restart" }, steps: ["ok"], then: "repeat-last" },
};

/** openai:alpha cuts its stream, and Claude tells the story that continues it. */
const STREAM_CUT_AND_CONTINUED: readonly StepFault[] = [
  { fault: ALPHA_STREAM_CUT, clearedLine: "openai:alpha streams whole answers again" },
  { fault: CLAUDE_TELLS_THE_STORY, clearedLine: "Claude answers as before" },
];

export const STORYLINE: readonly StoryStep[] = [
  {
    id: "healthy",
    title: "Healthy traffic",
    detail: "A chat session asks the gateway for openai/gpt-4o-mini; the first of its two OpenAI keys answers.",
    actions: [
      chat("Hi! Can you keep my calls alive?", "openai:alpha is first in the key order"),
      chat("What happens when a key is rate-limited?", "the session keeps using the same key"),
    ],
  },
  HEADROOM_STEP,
  SEATS_STEP,
  {
    id: "rate-limit",
    title: "A rate limit on the first key",
    detail: "openai:alpha is rate-limited. Detour rotates to the second key on the same model.",
    actions: [
      { kind: "inject", fault: ALPHA_RATE_LIMIT },
      chat("Still there?", "429 on openai:alpha → blocked until its Retry-After, rotated to openai:beta"),
      chat("And now?", "openai:alpha is still blocked, so it is not called at all"),
    ],
  },
  {
    id: "billing",
    title: "A billing failure disables a key",
    detail: "openai:beta runs out of credits: a 402 disables the key for hours, not seconds.",
    actions: [
      { kind: "skip-time", ms: RATE_LIMIT_RETRY_AFTER_SECONDS * 1000, why: "openai:alpha's Retry-After window ends" },
      { kind: "clear", fault: ALPHA_RATE_LIMIT, description: "openai:alpha's rate limit has reset" },
      { kind: "inject", fault: BETA_BILLING },
      chat("Are you on a budget?", "402 on openai:beta → disabled; openai:alpha answers again"),
    ],
  },
  {
    id: "outage",
    title: "Provider outage → model fallback",
    detail: "Every OpenAI key fails. Detour falls back to the Anthropic model and says so, once.",
    actions: [
      { kind: "inject", fault: OPENAI_OUTAGE },
      chat("Is OpenAI down?", "529 on openai:alpha, openai:beta disabled → anthropic/claude-sonnet-4-5 with a notice"),
      chat("Keep going, please.", "sticky fallback: stays on Anthropic, no notice, OpenAI not called"),
      { kind: "skip-time", ms: PRIMARY_PROBE_INTERVAL_MS, why: "a session on a fallback re-tries its primary at most every 5 minutes" },
      chat("Five minutes later…", "the re-probe of openai/gpt-4o-mini fails; still on the fallback, silently"),
    ],
  },
  {
    id: "recovery",
    title: "The primary recovers",
    detail: "OpenAI is healthy again. The session returns at its next primary probe, with the cleared notice.",
    actions: [
      { kind: "clear", fault: OPENAI_OUTAGE, description: "OpenAI is back (openai:beta is still out of credits)" },
      chat("Anything new?", "no per-message probing: the session stays on the fallback until the next probe is due"),
      { kind: "skip-time", ms: PRIMARY_PROBE_INTERVAL_MS, why: "the next re-try of the primary is due" },
      chat("Back to normal?", "the probe succeeds: back on openai/gpt-4o-mini with the cleared notice"),
      chat("Thanks!", "and it stays there, silently"),
    ],
  },
  {
    id: "stream-rescue",
    title: "A stream cut mid-answer is finished",
    detail:
      "openai:alpha's stream breaks after its first words. Detour asks the next model to go on from there and " +
      "streams only the missing part: the reader gets one whole answer, no word twice.",
    actions: whileFaulted(STREAM_CUT_AND_CONTINUED, [
      {
        kind: "chat",
        stream: true,
        message: "Tell me a story.",
        note: "cut after 12 words on openai:alpha → openai:beta is out of credits → Claude continues; its restart is trimmed away",
      },
    ]),
  },
  HEDGING_STEP,
];
