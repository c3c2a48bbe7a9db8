/**
 * The storyline's step where Detour moves off a key *before* its limit. Every answer carries the key's
 * rate-limit headers; a key whose window is nearly spent is passed over for one with room, so the user
 * never meets the 429 at all.
 *
 * Self-contained so the other steps keep their story: it runs in its own chat session (the main session's
 * key pin stays where it was), and it ends with the window reset and the budget lifted, so nothing of it is
 * left for the next step to trip over.
 */
import { DEMO_PROFILES } from "./demo-setup.js";
import type { BudgetSpec, StoryAction, StoryStep } from "./storyline.js";

/** A second chat session: it starts on the first key of the order, like every new session. */
export const HEADROOM_SESSION = "demo-second-chat";

export const BUDGET_WINDOW_SECONDS = 60;

export const ALPHA_NEARLY_SPENT: BudgetSpec = {
  name: "alpha-nearly-spent",
  provider: "openai",
  profileId: DEMO_PROFILES.alpha.id,
  key: DEMO_PROFILES.alpha.key,
  description:
    `${DEMO_PROFILES.alpha.id} has already used 96 of its 100 requests this minute ` +
    "(its answers say how many are left, in x-ratelimit-* headers)",
  budget: { requests: 100, usedRequests: 96, windowSeconds: BUDGET_WINDOW_SECONDS },
};

const chat = (message: string, note: string): StoryAction => ({ kind: "chat", message, note, session: HEADROOM_SESSION });

export const HEADROOM_STEP: StoryStep = {
  id: "headroom",
  title: "Moving off a key before its limit",
  detail:
    "Detour reads the rate-limit headers of every answer. A second chat session starts on openai:alpha, whose " +
    "minute is nearly used up; Detour moves it to openai:beta before alpha would have to refuse it with a 429.",
  actions: [
    { kind: "set-budget", budget: ALPHA_NEARLY_SPENT },
    chat("Hello from a second chat!", "openai:alpha answers, and its headers say only 3 of its 100 requests are left"),
    chat("Can you keep going?", "Detour moved before openai:alpha's limit: alpha still had requests left and never answered 429"),
    { kind: "skip-time", ms: BUDGET_WINDOW_SECONDS * 1000, why: "openai:alpha's minute window resets" },
    {
      kind: "lift-budget",
      budget: ALPHA_NEARLY_SPENT,
      description: "openai:alpha has room again (the demo lifts its budget for the rest of the story)",
    },
  ],
};
