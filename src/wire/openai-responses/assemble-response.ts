/**
 * Responses API stream events → the response object the same request would have got without `stream`
 * (SPEC R-ST-6). The Responses stream ends with `response.completed` (or `response.incomplete`,
 * `response.failed`) carrying the whole response, so the terminal event *is* the non-streamed answer; the
 * output items finished along the way (`response.output_item.done`) fill in the output when a terminal
 * event arrives without it. Works on parsed JSON, so fields the schema does not know survive.
 */

type Json = Record<string, unknown>;

const TERMINAL_EVENTS = new Set(["response.completed", "response.incomplete", "response.failed"]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class ResponsesAssembler {
  #latest: Json | undefined;
  #terminal: Json | undefined;
  readonly #doneItems = new Map<number, unknown>();

  accept(event: unknown): void {
    if (!isObject(event)) return;
    const type = event.type;
    if (type === "response.output_item.done" && typeof event.output_index === "number") {
      this.#doneItems.set(event.output_index, event.item);
      return;
    }
    if (!isObject(event.response)) return;
    if (typeof type === "string" && TERMINAL_EVENTS.has(type)) this.#terminal = event.response;
    else this.#latest = event.response;
  }

  /** The assembled response: the terminal event's, else the last envelope seen, with finished items as output. */
  response(): Json {
    const base = this.#terminal ?? this.#latest ?? {};
    const output = base.output;
    if (Array.isArray(output) && output.length > 0) return base;
    const items = [...this.#doneItems.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    return { ...base, output: items };
  }
}
