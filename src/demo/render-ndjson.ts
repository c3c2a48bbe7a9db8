/** `detour demo --json`: one JSON object per line for every demo event, nothing else on stdout. */
import type { OutputStream } from "../terminal/output.js";
import type { DemoEvent, DemoSink } from "./demo-events.js";

export class NdjsonSink implements DemoSink {
  readonly #out: OutputStream;

  constructor(out: OutputStream) {
    this.#out = out;
  }

  emit(event: DemoEvent): void {
    this.#out.write(`${JSON.stringify(event)}\n`);
  }
}
