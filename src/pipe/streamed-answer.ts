/**
 * What both lanes share when a non-streamed request is streamed upstream (SPEC R-ST-6): knowing which models
 * refuse a stream, so they are called plain.
 */
import { UpstreamFailure } from "../ports/provider.js";

/**
 * A 400 that names `stream` is the upstream refusing a stream for this request (an OpenAI model that "does not
 * support stream", a compatible server without streaming): the attempt is made again as a plain call instead
 * of failing over, and the model is remembered so its next requests go plain at once.
 */
export function refusesStreaming(error: unknown): boolean {
  if (!(error instanceof UpstreamFailure)) return false;
  const { status, message } = error.failure;
  if (status !== 400 && status !== 422) return false;
  return /\bstream(ing)?\b|'stream'|"stream"/i.test(message ?? "") && !/stream_options/i.test(message ?? "");
}

/** Bounded: a config names few models, but model ids come from requests. */
const REMEMBERED_REFUSALS_LIMIT = 1000;

/** `provider/model` pairs that refused a stream; their non-streamed requests are sent plain. */
export class StreamRefusals {
  readonly #refused = new Set<string>();

  has(provider: string, model: string): boolean {
    return this.#refused.has(`${provider}/${model}`);
  }

  add(provider: string, model: string): void {
    if (this.#refused.size >= REMEMBERED_REFUSALS_LIMIT) this.#refused.delete(this.#refused.values().next().value as string);
    this.#refused.add(`${provider}/${model}`);
  }
}
