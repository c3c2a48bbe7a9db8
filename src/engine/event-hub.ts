/**
 * The one place runner events become log lines and reach listeners (DESIGN §4: observability is events).
 * A listener that throws never breaks a run: its error is logged and the next listener still runs.
 */
import { silentLogger, type DetourEvent, type DetourEventOf, type DetourEventType, type EventSink, type Logger } from "../ports/events.js";
import { describeEvent, eventLevel } from "../runner/log-lines.js";

export type DetourEventListener<E extends DetourEvent = DetourEvent> = (event: E) => void;

export class EventHub implements EventSink {
  readonly #logger: Logger;
  /**
   * Listeners per type, as arrays replaced on every (rare) subscribe and unsubscribe: an emit walks them by
   * index, with none of the iterators a Set walk allocates (a healthy request emits several events), and a
   * listener that subscribes or leaves during an emit changes only the next one.
   */
  readonly #listeners = new Map<DetourEventType | "*", readonly DetourEventListener<never>[]>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Subscribes to one event type, or to every event with `"*"` (once each). Returns the unsubscribe function. */
  on<T extends DetourEventType>(type: T, listener: DetourEventListener<DetourEventOf<T>>): () => void;
  on(type: "*", listener: DetourEventListener): () => void;
  on(type: DetourEventType | "*", listener: DetourEventListener<never>): () => void {
    const current = this.#listeners.get(type) ?? [];
    if (!current.includes(listener)) this.#listeners.set(type, [...current, listener]);
    return () => {
      const now = this.#listeners.get(type);
      if (!now?.includes(listener)) return;
      const rest = now.filter((other) => other !== listener);
      if (rest.length > 0) this.#listeners.set(type, rest);
      else this.#listeners.delete(type);
    };
  }

  emit(event: DetourEvent): void {
    // Building the log line is most of an event's cost; a library user without a logger pays nothing for it.
    // A line below the logger's level is not built at all (most of a healthy request's events are debug).
    if (this.#logger !== silentLogger && (this.#logger.isLevelEnabled?.(eventLevel(event)) ?? true)) {
      const line = describeEvent(event);
      this.#logger.log(line.level, line.message, line.fields);
    }
    const typed = this.#listeners.get(event.type);
    if (typed) this.#deliver(typed, event);
    const all = this.#listeners.get("*");
    if (all) this.#deliver(all, event);
  }

  #deliver(listeners: readonly DetourEventListener<never>[], event: DetourEvent): void {
    for (let index = 0; index < listeners.length; index += 1) {
      try {
        (listeners[index] as DetourEventListener)(event);
      } catch (error) {
        this.#logger.log("warn", `A listener of "${event.type}" events threw; the run continues`, {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
}
