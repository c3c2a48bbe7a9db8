/**
 * R-PO-7 decision events: when a run passes a nearly spent profile over for one with headroom, say which,
 * why and where the run goes instead. The decision itself is made in core (order and pin); this only tells.
 */
import type { ResolveSessionPinResult } from "../core/session-pin.js";
import type { ProviderView } from "./provider-view.js";
import type { RunnerDeps } from "./runner-deps.js";

export function emitHeadroomDecisions(
  deps: Pick<RunnerDeps, "events" | "agentId">,
  run: { runId: string; sessionKey?: string },
  view: ProviderView,
  pin: ResolveSessionPinResult,
): void {
  const moved = pin.headroomMove;
  // A session staying on its existing pin was never going to start with the order's head.
  const keptPin = pin.pinnedProfileId !== undefined && pin.write === undefined;
  const passed = new Set(keptPin ? [] : view.passedOver);
  if (moved) passed.add(moved.from);
  // A strict user pin is never steered, so nothing was passed over.
  if (passed.size === 0 || pin.strict) return;
  const firstWithRoom = view.usable.find((id) => !view.nearlySpent.includes(id));
  const to = moved?.to ?? pin.pinnedProfileId ?? firstWithRoom ?? null;
  for (const profileId of passed) {
    const headroom = view.headroom[profileId];
    if (!headroom?.nearlySpent || profileId === to) continue;
    deps.events.emit({
      type: "headroom_passed_over",
      runId: run.runId,
      agentId: deps.agentId,
      sessionId: run.sessionKey ?? null,
      provider: view.provider,
      model: view.model,
      profileId,
      toProfileId: to,
      why: headroom.why ?? "below_min_remaining",
      window: headroom.window,
      remainingShare: headroom.remainingShare ?? null,
      resetAt: headroom.resetAt,
      pinMoved: moved?.from === profileId,
    });
  }
}
