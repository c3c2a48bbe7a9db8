/**
 * A request body's bytes as they arrived from the socket, never joined into one Buffer. V8 counts
 * every new backing store towards its next full GC: a 1 MB body joined into one more 1 MB Buffer per request
 * (fastify's `parseAs: "buffer"` does that) kept the gateway in a regime of a Mark-Compact every few requests.
 * The chunks are the socket's own copies (one per read); the lane reads spans of them and sends views of them
 * upstream. The one pass that needs contiguous bytes, the scan, reads a reused scratch copy synchronously
 * (`withContiguous`), so no view of the scratch outlives it.
 */
import { StringDecoder } from "node:string_decoder";

export class BodyBytes {
  /** `chunks` in order; `length` their total. The chunks are not changed or joined here. */
  constructor(
    readonly chunks: readonly Buffer[],
    readonly length: number,
  ) {}

  static of(buffer: Buffer): BodyBytes {
    return new BodyBytes([buffer], buffer.length);
  }

  /** Views of [start, end) in order (no copy); empty ranges give none. */
  views(start: number, end: number = this.length): Buffer[] {
    const views: Buffer[] = [];
    let offset = 0;
    for (const chunk of this.chunks) {
      const chunkEnd = offset + chunk.length;
      if (chunkEnd > start && offset < end) {
        views.push(chunk.subarray(Math.max(start - offset, 0), Math.min(end - offset, chunk.length)));
      }
      if (chunkEnd >= end) break;
      offset = chunkEnd;
    }
    return views;
  }

  /** [start, end) as one Buffer: a view when it lies in one chunk, a copy when it spans several (small spans). */
  slice(start: number, end: number): Buffer {
    const views = this.views(start, end);
    if (views.length === 1) return views[0] as Buffer;
    return Buffer.concat(views, end - start);
  }

  /** UTF-8 text of [start, end); a character split across chunks is decoded whole. */
  utf8(start = 0, end: number = this.length): string {
    const views = this.views(start, end);
    if (views.length === 1) return (views[0] as Buffer).toString("utf8");
    const decoder = new StringDecoder("utf8");
    let text = "";
    for (const view of views) text += decoder.write(view);
    return text + decoder.end();
  }

  /** Offset of the first `byte` at or after `from`, or -1. */
  indexOf(byte: number, from = 0): number {
    let offset = 0;
    for (const chunk of this.chunks) {
      const chunkEnd = offset + chunk.length;
      if (chunkEnd > from) {
        const found = chunk.indexOf(byte, Math.max(from - offset, 0));
        if (found !== -1) return offset + found;
      }
      offset = chunkEnd;
    }
    return -1;
  }

  /** Whether the ASCII text occurs anywhere, also across chunk boundaries (however short the chunks). */
  includes(ascii: string): boolean {
    const overlap = ascii.length - 1;
    let boundary = 0;
    for (let index = 0; index < this.chunks.length; index += 1) {
      const chunk = this.chunks[index] as Buffer;
      if (chunk.includes(ascii, 0, "latin1")) return true;
      boundary += chunk.length;
      if (overlap > 0 && boundary < this.length) {
        // The bytes around the boundary, from whichever chunks hold them: every match that spans it.
        const seam = this.slice(Math.max(boundary - overlap, 0), Math.min(boundary + overlap, this.length));
        if (seam.includes(ascii, 0, "latin1")) return true;
      }
    }
    return false;
  }

  /**
   * Runs `read` on the bytes as one Buffer, synchronously: the only chunk itself, or a reused scratch copy of
   * all of them. `read` must not keep the Buffer or any view of it: the next call overwrites the scratch.
   */
  withContiguous<T>(read: (bytes: Buffer) => T): T {
    if (this.chunks.length === 1) return read(this.chunks[0] as Buffer);
    const target = scratchOf(this.length);
    let offset = 0;
    for (const chunk of this.chunks) offset += chunk.copy(target, offset);
    return read(target.subarray(0, this.length));
  }
}

/** Bodies up to this size reuse one scratch Buffer; a larger one gets its own, freed with it. */
const MAX_SCRATCH_BYTES = 8 * 1024 * 1024;
let scratch: Buffer | undefined;

function scratchOf(length: number): Buffer {
  if (scratch && scratch.length >= length) return scratch;
  // Grown in steps, so a run of slightly larger bodies does not allocate each time.
  const fresh = Buffer.allocUnsafeSlow(Math.max(length, Math.min(2 * (scratch?.length ?? 0), MAX_SCRATCH_BYTES), 64 * 1024));
  if (fresh.length <= MAX_SCRATCH_BYTES) scratch = fresh;
  return fresh;
}

/**
 * The bytes of one upstream request: one Buffer, or the same bytes as views in order (a large client body
 * with a few edits goes out as its own bytes around them, without a second copy of the whole body).
 * Either form can be sent again as it is (a retry, a rotated credential): nothing in it is consumed.
 */
export type UpstreamBody = Buffer | UpstreamChunks;

export interface UpstreamChunks {
  readonly chunks: readonly Buffer[];
  /** The sum of the chunks' lengths: sent as `content-length`, so the request is never chunk-encoded. */
  readonly byteLength: number;
}
