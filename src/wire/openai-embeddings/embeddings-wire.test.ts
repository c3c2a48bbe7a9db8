import { describe, expect, it } from "vitest";
import { encodeOllamaEmbedRequest, openAiEmbeddingsFromOllama } from "../ollama/embed.js";
import { embeddingsUsageOf } from "./usage.js";
import { float32Base64, vectorFromBase64 } from "./vectors.js";

describe("OpenAI embeddings wire", () => {
  it("R-GW-7: reads the usage after the vectors without parsing them, and nothing from a body without one", () => {
    const body = Buffer.from(
      JSON.stringify({
        object: "list",
        data: [{ embedding: 'AAAA{"usage"', index: 0 }],
        model: "m",
        usage: { prompt_tokens: 7, total_tokens: 7 },
      }),
    );
    expect(embeddingsUsageOf(body)).toEqual({ inputTokens: 7 });
    expect(embeddingsUsageOf(Buffer.from('{"data":[]}'))).toBeUndefined();
    expect(embeddingsUsageOf(Buffer.from('{"data":[],"usage":{"prompt_tokens":'))).toBeUndefined();
  });

  it("round-trips vectors through float32 base64", () => {
    const vector = [0.5, -0.25, 1 / 3].map(Math.fround);
    expect(vectorFromBase64(float32Base64(vector))).toEqual(vector);
  });

  it("translates to Ollama's /api/embed and back, refusing token ids and naming the dropped hint", () => {
    expect(encodeOllamaEmbedRequest({ model: "x", input: ["a", "b"], dimensions: 3, user: "u" }, "nomic")).toEqual({
      ok: true,
      body: { model: "nomic", input: ["a", "b"], dimensions: 3 },
      dropped: ["user"],
    });
    expect(encodeOllamaEmbedRequest({ model: "x", input: [1, 2, 3] }, "nomic")).toMatchObject({ ok: false, field: "input" });
    const answer = openAiEmbeddingsFromOllama({ embeddings: [[0.5, 0.25]], prompt_eval_count: 4 }, "nomic", "base64");
    expect(answer).toEqual({
      object: "list",
      data: [{ object: "embedding", index: 0, embedding: float32Base64([0.5, 0.25]) }],
      model: "nomic",
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
  });
});
