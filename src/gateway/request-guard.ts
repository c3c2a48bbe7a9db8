/**
 * The gateway's Host and Origin check (SPEC R-GW-13), run before routing on every request.
 *
 * A gateway on 127.0.0.1 is reachable from any web page the user opens: through DNS rebinding (the page's own
 * name resolves to 127.0.0.1, so the browser sends `Host: attacker.example:<port>` and treats the gateway as
 * same-origin) or by plain cross-origin requests. So a request is answered only when its `Host` is a loopback
 * name on the bound port (or a name the operator listed in `gateway.allowedHosts`), and a request that carries
 * an `Origin` only when that origin is the gateway's own (or listed in `gateway.allowedOrigins`, whose CORS
 * preflights are then answered). Tokens do not change this: a rebinding page would send them along too.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ERROR_CODES } from "../core/errors.js";

export interface RequestGuardSettings {
  readonly allowedHosts?: readonly string[];
  readonly allowedOrigins?: readonly string[];
}

export type GuardRefusal = {
  allowed: false;
  code: typeof ERROR_CODES.hostNotAllowed | typeof ERROR_CODES.originNotAllowed;
  message: string;
};

/** `corsOrigin`: the request's allowed Origin, to echo in Access-Control-Allow-Origin. */
export type GuardDecision = { allowed: true; corsOrigin?: string } | GuardRefusal;

/** The names of the gateway itself, besides the bound address: what `localhost` URLs and the dashboard use. */
export const LOOPBACK_HOST_NAMES = ["localhost", "*.localhost", "127.0.0.1", "[::1]"] as const;

/** Headers a browser front end may send: the SDKs' own, the Detour routing headers (R-GW-3). */
const ALLOWED_REQUEST_HEADERS = [
  "authorization",
  "content-type",
  "x-api-key",
  "anthropic-version",
  "anthropic-beta",
  "x-detour-agent",
  "x-detour-session",
  "x-detour-fallbacks",
  "x-detour-source",
];
const ALLOWED_METHODS = "GET, POST, PATCH, OPTIONS";
/** Response headers a cross-origin page may read: the answer's provenance (R-GW-3, R-OB-1) and Retry-After. */
const EXPOSED_RESPONSE_HEADERS =
  "x-detour-model, x-detour-attempts, x-detour-profile, x-detour-notice, x-detour-cost-usd, x-detour-estimate, x-detour-dropped, retry-after";
const PREFLIGHT_MAX_AGE_SECONDS = "600";
/** Client text quoted back in a refusal is cut to this length. */
const QUOTED_LIMIT = 120;

interface HostPort {
  /** Lower case; IPv6 literals keep their brackets. */
  name: string;
  /** Undefined when the text names no port. */
  port: number | undefined;
}

/** `name[:port]` or `[v6][:port]`; undefined when the text is not a host. */
export function parseHostPort(text: string): HostPort | undefined {
  const value = text.trim().toLowerCase();
  if (value === "") return undefined;
  let name: string;
  let rest: string;
  if (value.startsWith("[")) {
    const close = value.indexOf("]");
    if (close === -1) return undefined;
    name = value.slice(0, close + 1);
    rest = value.slice(close + 1);
  } else {
    const colon = value.indexOf(":");
    name = colon === -1 ? value : value.slice(0, colon);
    rest = colon === -1 ? "" : value.slice(colon);
  }
  if (name === "" || name === "[]" || /[\s/@?#]/.test(name)) return undefined;
  if (rest === "") return { name, port: undefined };
  if (!/^:\d{1,5}$/.test(rest)) return undefined;
  const port = Number(rest.slice(1));
  return port <= 65535 ? { name, port } : undefined;
}

function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || name === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The bound address as it appears in a Host header, or undefined for a wildcard bind (0.0.0.0, ::). */
function boundHostName(boundHost: string | undefined): string | undefined {
  if (boundHost === undefined) return undefined;
  const bare = boundHost
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (bare === "" || bare === "0.0.0.0" || bare === "::") return undefined;
  return bare.includes(":") ? `[${bare}]` : bare;
}

function quoted(text: string): string {
  return JSON.stringify(text.length > QUOTED_LIMIT ? `${text.slice(0, QUOTED_LIMIT)}…` : text);
}

function normalizedOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, "");
}

interface CompiledSettings {
  /** Names allowed on any port. */
  anyPort: Set<string>;
  /** `name:port` pairs. */
  withPort: Set<string>;
  origins: Set<string>;
}

const compiledCache = new WeakMap<RequestGuardSettings, CompiledSettings>();

function compiled(settings: RequestGuardSettings): CompiledSettings {
  let result = compiledCache.get(settings);
  if (result) return result;
  result = { anyPort: new Set(), withPort: new Set(), origins: new Set() };
  for (const entry of settings.allowedHosts ?? []) {
    const parsed = parseHostPort(entry);
    if (!parsed) continue;
    if (parsed.port === undefined) result.anyPort.add(parsed.name);
    else result.withPort.add(`${parsed.name}:${parsed.port}`);
  }
  for (const origin of settings.allowedOrigins ?? []) result.origins.add(normalizedOrigin(origin));
  compiledCache.set(settings, result);
  return result;
}

/**
 * The request's Host: a loopback name (or the bound address) on the bound port, or an allowed host. With no
 * port bound yet (an app answering `inject()` only) a loopback name on any port is its own.
 */
function hostAllowed(host: HostPort, boundPort: number | undefined, boundName: string | undefined, lists: CompiledSettings): boolean {
  if (lists.anyPort.has(host.name)) return true;
  // A Host without a port names the scheme's default (80): what a browser sends for http://name/.
  const port = host.port ?? 80;
  if (lists.withPort.has(`${host.name}:${port}`)) return true;
  if (!isLoopbackName(host.name) && host.name !== boundName) return false;
  return boundPort === undefined || port === boundPort;
}

/**
 * The gateway's own origin: a page it served itself, i.e. an http(s) origin whose host is the Host the request
 * came to (already checked), or a loopback origin on the bound port.
 */
function isOwnOrigin(origin: string, requestHost: string, boundPort: number | undefined, boundName: string | undefined): boolean {
  const match = /^(https?):\/\/([^/]+)$/.exec(origin);
  if (!match) return false;
  const scheme = match[1] as string;
  const authority = match[2] as string;
  if (authority === requestHost.trim().toLowerCase()) return true;
  const parsed = parseHostPort(authority);
  if (!parsed || scheme !== "http") return false;
  if (!isLoopbackName(parsed.name) && parsed.name !== boundName) return false;
  return boundPort === undefined || (parsed.port ?? 80) === boundPort;
}

export interface GuardRequest {
  host: string | undefined;
  origin: string | undefined;
}

/** The decision for one request (pure; the hook below applies it). */
export function checkRequest(
  request: GuardRequest,
  settings: RequestGuardSettings,
  bound: { port: number | undefined; host?: string | undefined },
): GuardDecision {
  const lists = compiled(settings);
  const boundName = boundHostName(bound.host);
  const hostText = request.host ?? "";
  const host = parseHostPort(hostText);
  if (!host || !hostAllowed(host, bound.port, boundName, lists)) {
    const port = bound.port === undefined ? "" : ` on port ${bound.port}`;
    return {
      allowed: false,
      code: ERROR_CODES.hostNotAllowed,
      message:
        `This gateway does not answer requests for host ${quoted(hostText)}: it answers loopback names ` +
        `(localhost, 127.0.0.1, [::1])${port} only, so a web page cannot reach it by DNS rebinding. If it is ` +
        `reached through a proxy or under another name, list that name in gateway.allowedHosts.`,
    };
  }
  if (request.origin === undefined) return { allowed: true };
  const origin = normalizedOrigin(request.origin);
  if (lists.origins.has(origin) || isOwnOrigin(origin, hostText, bound.port, boundName)) {
    return { allowed: true, corsOrigin: request.origin.trim() };
  }
  return {
    allowed: false,
    code: ERROR_CODES.originNotAllowed,
    message:
      `This gateway does not answer web pages from origin ${quoted(request.origin)}: browser pages may call it ` +
      `only from its own origin. To let a browser app call it, list that origin (for example ` +
      `"https://chat.example.com") in gateway.allowedOrigins.`,
  };
}

/** `Access-Control-Request-Headers` as a list of header names (only well-formed tokens). */
function requestedHeaders(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(",") : (value ?? "");
  return text
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => /^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name));
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export interface InstallRequestGuardOptions {
  /** Read per request: a reload may change the lists. */
  settings: () => RequestGuardSettings;
  /** The address the gateway binds (its literal is one of the gateway's own names unless it is a wildcard). */
  boundHost?: string;
  /** Sends the 403 (in the dialect of the route hit). */
  refuse: (request: FastifyRequest, reply: FastifyReply, refusal: GuardRefusal) => void;
}

/**
 * Installs the guard as the app's first `onRequest` hook. The bound port is the local port of the connection
 * the request came in on; a request without one (`inject()`, which no browser can send) may name a loopback
 * host on any port.
 */
export function installRequestGuard(app: FastifyInstance, options: InstallRequestGuardOptions): void {
  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const headers = request.headers;
    const origin = headerText(headers.origin);
    const decision = checkRequest({ host: headerText(headers.host), origin }, options.settings(), {
      port: request.raw.socket?.localPort,
      host: options.boundHost,
    });
    if (!decision.allowed) {
      options.refuse(request, reply, decision);
      return;
    }
    if (decision.corsOrigin === undefined) {
      done();
      return;
    }
    const raw = reply.raw;
    if (request.method === "OPTIONS" && headers["access-control-request-method"] !== undefined) {
      const allowHeaders = [...new Set([...ALLOWED_REQUEST_HEADERS, ...requestedHeaders(headers["access-control-request-headers"])])];
      reply
        .code(204)
        .headers({
          "access-control-allow-origin": decision.corsOrigin,
          "access-control-allow-methods": ALLOWED_METHODS,
          "access-control-allow-headers": allowHeaders.join(", "),
          "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
          vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
        })
        .send();
      return;
    }
    // On the raw response, so streamed answers (written with writeHead) carry them too.
    raw.setHeader("access-control-allow-origin", decision.corsOrigin);
    raw.setHeader("access-control-expose-headers", EXPOSED_RESPONSE_HEADERS);
    raw.setHeader("vary", "Origin");
    done();
  });
}

/** What the banner and `detour doctor` say is allowed (R-GW-13). */
export function describeAllowedClients(settings: RequestGuardSettings, port: number): { hosts: string; origins: string } {
  const hosts = [`${LOOPBACK_HOST_NAMES.join(", ")} on port ${port}`, ...(settings.allowedHosts ?? [])].join("; ");
  const ownOrigins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
  const listed = settings.allowedOrigins ?? [];
  return {
    hosts: `${hosts}${(settings.allowedHosts ?? []).length === 0 ? " (list a proxy's or another public name in gateway.allowedHosts)" : ""}`,
    origins: `${[...ownOrigins, ...listed].join(", ")}${listed.length === 0 ? " (list a browser app's origin in gateway.allowedOrigins)" : ""}`,
  };
}
