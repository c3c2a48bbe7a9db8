/**
 * The one place runner events become log lines and reach listeners (DESIGN §4: observability is events).
 * A listener that throws never breaks a run: its error is logged and the next listener still runs.
 */
import { silentLogger, type DetourEvent, type DetourEventOf, type DetourEventType, type EventSink, type Logger } from "../ports/events.js";
import { describeEvent, eventLevel } from "../runner/log-lines.js";

export type DetourEventListener<E extends DetourEvent = DetourEvent> = (event: E) => void;

export class EventHub implements EventSink {
  readonly #logger: Logger;
  readonly #listeners = new Map<DetourEventType | "*", Set<DetourEventListener<never>>>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Subscribes to one event type, or to every event with `"*"`. Returns the unsubscribe function. */
  on<T extends DetourEventType>(type: T, listener: DetourEventListener<DetourEventOf<T>>): () => void;
  on(type: "*", listener: DetourEventListener): () => void;
  on(type: DetourEventType | "*", listener: DetourEventListener<never>): () => void {
    let set = this.#listeners.get(type);
    if (!set) {
      set = new Set();
      this.#listeners.set(type, set);
    }
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit(event: DetourEvent): void {
    // Building the log line is most of an event's cost; a library user without a logger pays nothing for it.
    // A line below the logger's level is not built at all (most of a healthy request's events are debug).
    if (this.#logger !== silentLogger && (this.#logger.isLevelEnabled?.(eventLevel(event)) ?? true)) {
      const line = describeEvent(event);
      this.#logger.log(line.level, line.message, line.fields);
    }
    for (const key of [event.type, "*"] as const) {
      for (const listener of this.#listeners.get(key) ?? []) {
        try {
          (listener as DetourEventListener)(event);
        } catch (error) {
          this.#logger.log("warn", `A listener of "${event.type}" events threw; the run continues`, {
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
  }
}
