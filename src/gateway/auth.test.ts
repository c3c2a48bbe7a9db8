import { describe, expect, it } from "vitest";
import { assertSafeBinding, authorize, GatewayBindError, presentedToken } from "./auth.js";

describe("gateway auth", () => {
  it("R-GW-5: client routes are open without tokens and need one of them when set", () => {
    expect(authorize("client", {}, "127.0.0.1", undefined)).toEqual({ allowed: true });
    expect(authorize("client", { tokens: ["t1", "t2"] }, "127.0.0.1", "t2")).toEqual({ allowed: true });
    const denied = authorize("client", { tokens: ["t1"] }, "127.0.0.1", "t1x");
    expect(denied).toMatchObject({ allowed: false, status: 401 });
    expect(authorize("client", { tokens: ["t1"] }, "127.0.0.1", undefined)).toMatchObject({ allowed: false });
  });

  it("R-GW-5: client tokens never open admin routes", () => {
    const settings = { tokens: ["client"], adminTokens: ["admin"] };
    expect(authorize("admin", settings, "127.0.0.1", "client")).toMatchObject({ allowed: false, status: 401 });
    expect(authorize("admin", settings, "127.0.0.1", "admin")).toEqual({ allowed: true });
  });

  it("R-GW-5: admin routes without admin tokens answer only on a loopback-bound gateway", () => {
    expect(authorize("admin", {}, "127.0.0.1", undefined)).toEqual({ allowed: true });
    expect(authorize("admin", {}, "::1", undefined)).toEqual({ allowed: true });
    expect(authorize("admin", { tokens: ["c"] }, "0.0.0.0", "c")).toMatchObject({ allowed: false, status: 404 });
  });

  it("R-GW-5: binding a non-loopback host without client tokens refuses to start", () => {
    expect(() => assertSafeBinding("0.0.0.0", {})).toThrow(GatewayBindError);
    expect(() => assertSafeBinding("0.0.0.0", { tokens: ["x"] })).not.toThrow();
    expect(() => assertSafeBinding("localhost", {})).not.toThrow();
  });

  it("reads bearer tokens and Anthropic-style x-api-key headers", () => {
    expect(presentedToken({ authorization: "Bearer abc" })).toBe("abc");
    expect(presentedToken({ authorization: "bearer  abc " })).toBe("abc");
    expect(presentedToken({ "x-api-key": "k" })).toBe("k");
    expect(presentedToken({})).toBeUndefined();
  });
});
