/**
 * Writes SSE frames to a hijacked response, respecting backpressure: a slow client pauses the upstream pull
 * instead of buffering the whole answer in memory. Writing to a client that went away is a no-op.
 */
import type { ServerResponse } from "node:http";

export class SseWriter {
  readonly #raw: ServerResponse;

  constructor(raw: ServerResponse) {
    this.#raw = raw;
  }

  get open(): boolean {
    return !this.#raw.destroyed && !this.#raw.writableEnded;
  }

  start(headers: Readonly<Record<string, string>>): void {
    this.#raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      // Proxies such as nginx would otherwise buffer the stream and defeat the commit point.
      "x-accel-buffering": "no",
      ...headers,
    });
    // No flushHeaders(): every caller writes its first frames right after, and Node sends the headers with
    // them in one packet instead of a syscall of their own.
  }

  async write(frames: readonly string[]): Promise<void> {
    for (const frame of frames) {
      if (!this.open) return;
      if (!this.#raw.write(frame)) await this.#drained();
    }
  }

  /**
   * One event's frames as one client write (one chunk on the wire instead of one per frame). Returns a promise
   * only when the client is behind (backpressure), like `writeBytes`: a stream writes every event.
   */
  writeFrames(frames: readonly string[]): Promise<void> | undefined {
    if (frames.length === 0) return undefined;
    return this.#send(frames.length === 1 ? (frames[0] as string) : frames.join(""));
  }

  /**
   * One upstream read as one client write (the same-wire lane). Returns a promise only when the client is
   * behind (backpressure): a stream writes every upstream read, and an async call per read is a promise each.
   */
  writeBytes(chunk: Buffer): Promise<void> | undefined {
    return this.#send(chunk);
  }

  /** One write while the client is connected; a promise only when it is behind. */
  #send(data: string | Buffer): Promise<void> | undefined {
    if (!this.open) return undefined;
    return this.#raw.write(data) ? undefined : this.#drained();
  }

  end(): void {
    if (this.open) this.#raw.end();
  }

  #drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#raw.off("drain", done);
        this.#raw.off("close", done);
        resolve();
      };
      this.#raw.on("drain", done);
      this.#raw.on("close", done);
    });
  }
}
