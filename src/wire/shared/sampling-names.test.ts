import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../../ports/canonical.js";
import { OLLAMA_SAMPLING_NAMES } from "../ollama/schemas.js";
import { samplingFromWire, samplingToWire } from "./sampling-names.js";

const request: CanonicalRequest = {
  messages: [],
  temperature: 0.2,
  topP: 0.9,
  maxTokens: 64,
  stop: ["END"],
  topK: 40,
  seed: 7,
  presencePenalty: 0.5,
  frequencyPenalty: 0,
};

describe("sampling settings under a wire's own names", () => {
  it("writes each set setting under the wire's name, in the encoders' order", () => {
    const wire = samplingToWire(request, OLLAMA_SAMPLING_NAMES);
    expect(Object.entries(wire)).toEqual([
      ["temperature", 0.2],
      ["top_p", 0.9],
      ["num_predict", 64],
      ["stop", ["END"]],
      ["top_k", 40],
      ["seed", 7],
      ["presence_penalty", 0.5],
      ["frequency_penalty", 0],
    ]);
  });

  it("leaves out what is not set, and an empty stop list", () => {
    expect(samplingToWire({ messages: [], stop: [], temperature: 1 }, OLLAMA_SAMPLING_NAMES)).toEqual({ temperature: 1 });
  });

  it("reads the wire's names back into the canonical request", () => {
    const decoded: CanonicalRequest = { messages: [] };
    samplingFromWire(samplingToWire(request, OLLAMA_SAMPLING_NAMES), OLLAMA_SAMPLING_NAMES, decoded);
    expect(decoded).toEqual(request);
  });

  it("reads nothing from an absent block or an empty stop list", () => {
    const decoded: CanonicalRequest = { messages: [] };
    samplingFromWire(undefined, OLLAMA_SAMPLING_NAMES, decoded);
    samplingFromWire({ stop: [] }, OLLAMA_SAMPLING_NAMES, decoded);
    expect(decoded).toEqual({ messages: [] });
  });
});
