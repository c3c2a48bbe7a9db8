/**
 * The storyline's step where a provider accepts the request and then never sends a byte. Waiting for its
 * timeout would hold the user for many seconds; instead, once the attempt has sent nothing for a few
 * seconds, Detour starts the rest of the chain beside it (a hedge) and the first to answer wins.
 *
 * Self-contained: its own chat session (the main session's pin is untouched), and the silence is cleared
 * at the end of the step.
 */
import { DEMO_PROFILES, FALLBACK_MODEL } from "./demo-setup.js";
import { whileFaulted } from "./faulted-actions.js";
import type { FaultSpec, StoryStep } from "./storyline.js";

export const HEDGING_SESSION = "demo-hedged-chat";

export const ALPHA_SILENT: FaultSpec = {
  name: "alpha-silent",
  provider: "openai",
  profileId: DEMO_PROFILES.alpha.id,
  fault: "silence",
  description: `${DEMO_PROFILES.alpha.id} accepts requests and then never sends a byte (no error, no timeout yet)`,
  rule: { name: "alpha-silent", match: { key: DEMO_PROFILES.alpha.key }, steps: ["silence"], then: "repeat-last" },
};

export const HEDGING_STEP: StoryStep = {
  id: "hedging",
  title: "A silent provider is raced, not waited out",
  detail:
    "openai:alpha takes the request and goes quiet. Rather than wait for its timeout, Detour starts the next " +
    `route of the chain beside it after a few seconds of silence (a hedge); ${FALLBACK_MODEL} answers first.`,
  actions: whileFaulted(
    [{ fault: ALPHA_SILENT, clearedLine: "openai:alpha answers again" }],
    [
      {
        kind: "chat",
        session: HEDGING_SESSION,
        message: "Are you there?",
        note: `openai:alpha sends nothing → hedge (openai:beta is out of credits, so ${FALLBACK_MODEL}) answers; alpha is closed, not blamed`,
      },
    ],
  ),
};
