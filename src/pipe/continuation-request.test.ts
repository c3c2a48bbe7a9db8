import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../ports/canonical.js";
import { CONTINUE_INSTRUCTION, continuationRequest, firstContinuationMode } from "./continuation-request.js";

const request: CanonicalRequest = {
  system: "Be brief.",
  messages: [{ role: "user", content: [{ type: "text", text: "Tell me a story." }] }],
  maxTokens: 100,
};

describe("R-ST-4 continuationRequest", () => {
  it("prefill: the delivered text as a trailing assistant message, trailing whitespace left out", () => {
    const built = continuationRequest(request, "Once upon a time ", "prefill");
    expect(built.messages).toEqual([...request.messages, { role: "assistant", content: [{ type: "text", text: "Once upon a time" }] }]);
    expect(built.system).toBe("Be brief.");
    expect(built.maxTokens).toBe(100);
  });

  it("instructed: the delivered text as an assistant turn, then the instruction as a user turn", () => {
    const built = continuationRequest(request, "Once upon a time ", "instructed");
    expect(built.messages).toEqual([
      ...request.messages,
      { role: "assistant", content: [{ type: "text", text: "Once upon a time " }] },
      { role: "user", content: [{ type: "text", text: CONTINUE_INSTRUCTION }] },
    ]);
  });

  it("nothing delivered: the original request again", () => {
    expect(continuationRequest(request, "  ", "prefill")).toBe(request);
    expect(continuationRequest(request, "", "instructed")).toBe(request);
  });

  it("never changes the client's request", () => {
    const before = structuredClone(request);
    continuationRequest(request, "Once", "instructed");
    expect(request).toEqual(before);
  });
});

describe("R-ST-4 firstContinuationMode: the declaration (config, then catalogue) decides, no API default", () => {
  const rows: [boolean | undefined, "prefill" | "instructed"][] = [
    [true, "prefill"],
    [false, "instructed"],
    [undefined, "instructed"],
  ];
  it.each(rows)("R-ST-4: declared %s → %s", (declared, mode) => {
    expect(firstContinuationMode(declared)).toBe(mode);
  });
});
