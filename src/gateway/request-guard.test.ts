import { describe, expect, it } from "vitest";
import { checkRequest, describeAllowedClients, parseHostPort } from "./request-guard.js";

const settings = { allowedHosts: ["proxy.example.com", "10.0.0.5:8443", "[fe80::1]"], allowedOrigins: ["https://chat.example.com/"] };
const listening = { port: 4141, host: "127.0.0.1" };

/** [Host, Origin, bound port (undefined: not listening), expected: allowed | the refusal code]. */
const ROWS: [string | undefined, string | undefined, number | undefined, "allowed" | "host" | "origin"][] = [
  ["127.0.0.1:4141", undefined, 4141, "allowed"],
  ["localhost:4141", undefined, 4141, "allowed"],
  ["LOCALHOST:4141", undefined, 4141, "allowed"],
  ["app.localhost:4141", undefined, 4141, "allowed"],
  ["[::1]:4141", undefined, 4141, "allowed"],
  ["127.0.0.2:4141", undefined, 4141, "allowed"],
  ["localhost:4142", undefined, 4141, "host"],
  ["localhost", undefined, 4141, "host"],
  ["evil.example:4141", undefined, 4141, "host"],
  ["localhost.evil.example:4141", undefined, 4141, "host"],
  ["127.0.0.1.evil.example:4141", undefined, 4141, "host"],
  [undefined, undefined, 4141, "host"],
  ["", undefined, 4141, "host"],
  ["localhost:99999", undefined, 4141, "host"],
  ["user@localhost:4141", undefined, 4141, "host"],
  ["proxy.example.com", undefined, 4141, "allowed"],
  ["Proxy.Example.com:443", undefined, 4141, "allowed"],
  ["10.0.0.5:8443", undefined, 4141, "allowed"],
  ["10.0.0.5:4141", undefined, 4141, "host"],
  ["[fe80::1]:4141", undefined, 4141, "allowed"],
  // No connection port (inject): loopback names on any port, nothing else.
  ["localhost:80", undefined, undefined, "allowed"],
  ["localhost", undefined, undefined, "allowed"],
  ["evil.example:80", undefined, undefined, "host"],
  // Origins.
  ["127.0.0.1:4141", "http://127.0.0.1:4141", 4141, "allowed"],
  ["127.0.0.1:4141", "http://localhost:4141", 4141, "allowed"],
  ["localhost:4141", "http://[::1]:4141", 4141, "allowed"],
  ["127.0.0.1:4141", "http://localhost:3000", 4141, "origin"],
  // The same authority as the request's Host: a page served under the name this request came to (TLS by a proxy).
  ["127.0.0.1:4141", "https://127.0.0.1:4141", 4141, "allowed"],
  ["localhost:4141", "https://127.0.0.1:4141", 4141, "origin"],
  ["127.0.0.1:4141", "http://evil.example", 4141, "origin"],
  ["127.0.0.1:4141", "null", 4141, "origin"],
  ["127.0.0.1:4141", "", 4141, "origin"],
  ["127.0.0.1:4141", "https://chat.example.com", 4141, "allowed"],
  ["127.0.0.1:4141", "HTTPS://CHAT.example.com", 4141, "allowed"],
  ["127.0.0.1:4141", "https://chat.example.com.evil.example", 4141, "origin"],
  ["127.0.0.1:4141", "http://chat.example.com", 4141, "origin"],
  // Behind a proxy the dashboard's own origin is the public name the request came to.
  ["proxy.example.com", "https://proxy.example.com", 4141, "allowed"],
  ["proxy.example.com", "https://other.example.com", 4141, "origin"],
  // A refused Host is refused whatever the Origin says.
  ["evil.example:4141", "http://127.0.0.1:4141", 4141, "host"],
];

describe("request guard decisions", () => {
  for (const [host, origin, port, expected] of ROWS) {
    it(`R-GW-13 Host ${JSON.stringify(host)} Origin ${JSON.stringify(origin)} port ${port ?? "unbound"} → ${expected}`, () => {
      const decision = checkRequest({ host, origin }, settings, { ...listening, port });
      if (expected === "allowed") {
        expect(decision).toMatchObject({ allowed: true });
        if (origin !== undefined) expect(decision).toMatchObject({ corsOrigin: origin });
      } else {
        expect(decision).toMatchObject({
          allowed: false,
          code: expected === "host" ? "DETOUR_HOST_NOT_ALLOWED" : "DETOUR_ORIGIN_NOT_ALLOWED",
        });
      }
    });
  }

  it("R-GW-13 the bound address is one of the gateway's own names; a wildcard bind is not", () => {
    expect(checkRequest({ host: "192.168.1.5:4141", origin: undefined }, {}, { port: 4141, host: "192.168.1.5" }).allowed).toBe(true);
    expect(checkRequest({ host: "[fd00::5]:4141", origin: undefined }, {}, { port: 4141, host: "fd00::5" }).allowed).toBe(true);
    expect(checkRequest({ host: "0.0.0.0:4141", origin: undefined }, {}, { port: 4141, host: "0.0.0.0" }).allowed).toBe(false);
    expect(checkRequest({ host: "192.168.1.5:4141", origin: undefined }, {}, { port: 4141, host: "0.0.0.0" }).allowed).toBe(false);
  });

  it("R-GW-13 refusals name the key to set and quote the client's text cut short", () => {
    const host = checkRequest({ host: `${"a".repeat(300)}.example:1`, origin: undefined }, {}, listening);
    expect(host).toMatchObject({ allowed: false, code: "DETOUR_HOST_NOT_ALLOWED" });
    if (!host.allowed) {
      expect(host.message).toContain("gateway.allowedHosts");
      expect(host.message.length).toBeLessThan(500);
    }
    const origin = checkRequest({ host: "localhost:4141", origin: "https://evil.example" }, {}, listening);
    expect(origin).toMatchObject({ allowed: false, code: "DETOUR_ORIGIN_NOT_ALLOWED" });
    if (!origin.allowed) expect(origin.message).toContain("gateway.allowedOrigins");
  });

  it("parses Host values with and without ports and IPv6 brackets", () => {
    expect(parseHostPort("Example.com:80")).toEqual({ name: "example.com", port: 80 });
    expect(parseHostPort("[::1]")).toEqual({ name: "[::1]", port: undefined });
    expect(parseHostPort("[::1]:4141")).toEqual({ name: "[::1]", port: 4141 });
    expect(parseHostPort("::1")).toBeUndefined();
    expect(parseHostPort("a:b")).toBeUndefined();
  });

  it("R-GW-13 describes what is allowed for the banner and doctor", () => {
    const none = describeAllowedClients({}, 4141);
    expect(none.hosts).toContain("127.0.0.1");
    expect(none.hosts).toContain("port 4141");
    expect(none.hosts).toContain("gateway.allowedHosts");
    expect(none.origins).toContain("http://localhost:4141");
    expect(none.origins).toContain("gateway.allowedOrigins");
    const listed = describeAllowedClients(settings, 4141);
    expect(listed.hosts).toContain("proxy.example.com");
    expect(listed.origins).toContain("https://chat.example.com/");
  });
});
