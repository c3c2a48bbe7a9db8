/** Passes every event on and keeps a copy, so the summary is computed from exactly what was reported. */
import type { DemoEvent, DemoSink, ProfilesEvent } from "./demo-events.js";

export class RecordingSink implements DemoSink {
  readonly events: DemoEvent[] = [];
  readonly #target: DemoSink;

  constructor(target: DemoSink) {
    this.#target = target;
  }

  emit(event: DemoEvent): void {
    this.events.push(event);
    this.#target.emit(event);
  }

  tick(now: number): void {
    this.#target.tick?.(now);
  }

  lastProfiles(): ProfilesEvent | undefined {
    return this.events.findLast((event): event is ProfilesEvent => event.type === "profiles");
  }
}
