/**
 * The storyline's step where a coding agent fans out sub-agents at once. Every account allows only
 * DEMO_SEATS_PER_ACCOUNT requests in flight (a subscription's parallel sessions); Detour spreads the
 * sub-agents over the accounts' free seats, lets any that find every account full wait in line for one,
 * and never sends a third request to an account — so the providers never answer a concurrency 429.
 *
 * Self-contained: every sub-agent has its own session, and the answers' delay is lifted at the end.
 */
import { DEMO_SEATS_PER_ACCOUNT, DEMO_PROFILE_LIST } from "./demo-setup.js";
import { whileFaulted, type StepFault } from "./faulted-actions.js";
import type { FaultSpec, StoryStep } from "./storyline.js";

export const SUB_AGENTS = 8;
export const SUB_AGENT_SESSION_PREFIX = "demo-sub-agent";
/** Long enough that every sub-agent is still in flight when the last one arrives. */
export const THINKING_MS = 1200;

const thinking = (provider: FaultSpec["provider"]): FaultSpec => ({
  name: `${provider}-thinking`,
  provider,
  fault: "slow-first-token",
  description: `${provider} takes ${THINKING_MS / 1000}s to answer each request (so they overlap)`,
  rule: {
    name: `${provider}-thinking`,
    match: { api: provider },
    steps: [{ fault: "slow-first-token", delayMs: THINKING_MS }],
    then: "repeat-last",
  },
});

export const OPENAI_THINKING = thinking("openai");
export const ANTHROPIC_THINKING = thinking("anthropic");

/** Both providers answer slowly for the length of the step, so the sub-agents' requests overlap. */
const BOTH_PROVIDERS_THINKING: readonly StepFault[] = [
  { fault: OPENAI_THINKING, clearedLine: "openai answers at once again" },
  { fault: ANTHROPIC_THINKING, clearedLine: "anthropic answers at once again" },
];

const seats = DEMO_PROFILE_LIST.length * DEMO_SEATS_PER_ACCOUNT;

export const SEATS_STEP: StoryStep = {
  id: "seats",
  title: "Sub-agents fan out over the accounts' seats",
  detail:
    `An agent starts ${SUB_AGENTS} sub-agents at once. Each account allows ${DEMO_SEATS_PER_ACCOUNT} requests in flight ` +
    `(${seats} seats in all): Detour spreads them over the free seats, and the rest wait in line for one instead of ` +
    "being refused.",
  actions: whileFaulted(BOTH_PROVIDERS_THINKING, [
    {
      kind: "fan-out",
      count: SUB_AGENTS,
      sessionPrefix: SUB_AGENT_SESSION_PREFIX,
      message: "Summarise your part of the repository.",
      note:
        `never more than ${DEMO_SEATS_PER_ACCOUNT} in flight per account; a full account is passed over, and when all are full ` +
        "the sub-agent waits for the next free seat",
    },
  ]),
};
