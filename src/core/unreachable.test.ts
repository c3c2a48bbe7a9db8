import { describe, expect, it } from "vitest";
import { transportCodeOf, unreachableKind } from "./unreachable.js";

describe("unreachable is not slow", () => {
  it.each([
    ["ENOTFOUND", "dns"],
    ["EAI_AGAIN", "dns"],
    ["EAI_NONAME", "dns"],
    ["EAI_NODATA", "dns"],
    ["ECONNREFUSED", "refused"],
    ["CERT_HAS_EXPIRED", "tls"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "tls"],
    ["SELF_SIGNED_CERT_IN_CHAIN", "tls"],
    ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "tls"],
    ["UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "tls"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "tls"],
    ["ERR_SSL_WRONG_VERSION_NUMBER", "tls"],
    ["EPROTO", "tls"],
  ])("R-TT-2 %s means the provider cannot be reached (%s)", (code, kind) => {
    expect(unreachableKind(code)).toBe(kind);
  });

  it.each([["ETIMEDOUT"], ["ECONNRESET"], ["UND_ERR_HEADERS_TIMEOUT"], ["EHOSTUNREACH"], ["rate_limit_exceeded"], [undefined]])(
    "R-TT-2 %s is not unreachable: the provider may answer, waiting can help",
    (code) => {
      expect(unreachableKind(code)).toBeUndefined();
    },
  );

  it("R-TT-2 finds the socket's code under undici's `fetch failed` wrapper", () => {
    const socket = Object.assign(new Error("getaddrinfo ENOTFOUND api.example.invalid"), { code: "ENOTFOUND" });
    const wrapped = new TypeError("fetch failed", { cause: socket });
    expect(transportCodeOf(wrapped)).toBe("ENOTFOUND");
    expect(transportCodeOf(new Error("plain"))).toBeUndefined();
    expect(transportCodeOf(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBeUndefined();
  });
});
