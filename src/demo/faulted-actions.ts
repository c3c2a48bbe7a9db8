/**
 * A storyline step's actions run while faults are on: each fault is injected before them and cleared after,
 * in the same order, with the line the demo prints as it clears. A step that leaves no fault behind is
 * self-contained, whatever step follows it.
 */
import type { FaultSpec, StoryAction } from "./storyline.js";

/** A fault for the length of the actions, and what the demo says when it is cleared. */
export interface StepFault {
  fault: FaultSpec;
  clearedLine: string;
}

export function whileFaulted(faults: readonly StepFault[], actions: readonly StoryAction[]): StoryAction[] {
  return [
    ...faults.map(({ fault }): StoryAction => ({ kind: "inject", fault })),
    ...actions,
    ...faults.map(({ fault, clearedLine }): StoryAction => ({ kind: "clear", fault, description: clearedLine })),
  ];
}
