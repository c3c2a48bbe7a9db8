import { describe } from "vitest";
import { itMapsEveryFinishReason } from "../__fixtures__/finish-reason-table.js";
import { mapOllamaFinishReason, OLLAMA_FINISH_REASONS } from "./finish-reasons.js";

describe("mapOllamaFinishReason", () => {
  itMapsEveryFinishReason(mapOllamaFinishReason, OLLAMA_FINISH_REASONS, [
    ["stop", "stop"],
    ["length", "length"],
    ["load", "stop"],
    ["unload", "stop"],
  ]);
});
