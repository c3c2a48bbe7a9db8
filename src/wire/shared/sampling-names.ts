/**
 * The sampling settings a format carries as plain values under names of its own (Gemini's `generationConfig`,
 * Ollama's `options`). Each format names them in one table; the copy each way is the same for all. An empty
 * stop list counts as not set, as on every wire.
 */
import type { CanonicalRequest } from "../../ports/canonical.js";
import type { CanonicalField } from "./encoding.js";

interface SamplingValues {
  temperature: number;
  topP: number;
  maxTokens: number;
  stop: string[];
  topK: number;
  seed: number;
  presencePenalty: number;
  frequencyPenalty: number;
}

/** The settings beyond the common ones that a wire writing its sampling here carries by doing so (see noteUncarriedFields). */
export const SAMPLING_FIELDS_CARRIED: readonly CanonicalField[] = ["topK", "seed", "frequencyPenalty", "presencePenalty"];

/** The wire's name for each canonical sampling setting. */
export type SamplingNames = { readonly [K in keyof SamplingValues]: string };

/** The settings under the wire's names, each only when set. */
export type WireSampling<N extends SamplingNames> = { [K in keyof SamplingValues as N[K]]?: SamplingValues[K] };

/** In the order the encoders have always written them. */
const SETTINGS: readonly (keyof SamplingValues)[] = [
  "temperature",
  "topP",
  "maxTokens",
  "stop",
  "topK",
  "seed",
  "presencePenalty",
  "frequencyPenalty",
];

function isSet(value: unknown): value is number | string[] {
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}

/** The request's sampling settings under the wire's names. */
export function samplingToWire<const N extends SamplingNames>(request: CanonicalRequest, names: N): WireSampling<N> {
  const wire: Record<string, number | string[]> = {};
  for (const setting of SETTINGS) {
    const value = request[setting];
    if (isSet(value)) wire[names[setting]] = value;
  }
  return wire as WireSampling<N>;
}

/** Copies the sampling settings a client sent under the wire's names onto the canonical request. */
export function samplingFromWire<const N extends SamplingNames>(
  wire: WireSampling<N> | undefined,
  names: N,
  request: CanonicalRequest,
): void {
  if (!wire) return;
  const sent = wire as Record<string, unknown>;
  const settings = request as Partial<Record<keyof SamplingValues, number | string[]>>;
  for (const setting of SETTINGS) {
    const value = sent[names[setting]];
    if (isSet(value)) settings[setting] = value;
  }
}
