/**
 * The two undici pieces Detour's HTTP client uses (`Agent` and `request`), loaded from their own modules
 * rather than from undici's index. The index eagerly loads all of undici — fetch, WebSocket, EventSource,
 * cache stores, cookie parsing, mock and proxy agents, interceptors: about 110 modules — and that costs the
 * built gateway ~9 MB of resident memory at start for code it never runs (idle RSS). The pieces
 * below are ~40 modules.
 *
 * undici ships no `exports` map, so these paths are importable; the version is pinned exactly in
 * package.json and undici-core.test.ts fails if a bump moves them. Types still come from the package
 * itself (type-only import, erased at build). The `request` here is undici's own `request(url, options)`
 * front end (index.js `makeDispatcher`) for the one form Detour uses: an absolute URL and an options object
 * with a dispatcher.
 */
import { createRequire } from "node:module";
import type { Agent as UndiciAgent, Dispatcher, request as undiciRequest } from "undici";

const load = createRequire(import.meta.url);

interface ApiRequest {
  call(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}
interface UndiciUtil {
  parseURL(url: string | URL): URL;
}

export const Agent: typeof UndiciAgent = load("undici/lib/dispatcher/agent.js");
const apiRequest: ApiRequest = load("undici/lib/api/api-request.js");
const util: UndiciUtil = load("undici/lib/core/util.js");
const { getGlobalDispatcher } = load("undici/lib/global.js") as { getGlobalDispatcher(): Dispatcher };

type RequestOptions = NonNullable<Parameters<typeof undiciRequest>[1]>;

/** Origin and path of the URLs called, parsed once each: providers call the few URLs their config names. */
const parsedUrls = new Map<string, { origin: string; path: string }>();
/** Bounds the memo whatever calls it (a URL per config, so it is never reached in practice). */
export const PARSED_URL_LIMIT = 256;

function originAndPath(url: string | URL): { origin: string; path: string } {
  const known = typeof url === "string" ? parsedUrls.get(url) : undefined;
  if (known) return known;
  const parsed = util.parseURL(url);
  const split = { origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
  if (typeof url === "string") {
    if (parsedUrls.size >= PARSED_URL_LIMIT) parsedUrls.clear();
    parsedUrls.set(url, split);
  }
  return split;
}

/**
 * undici's `request(url, options)`: same URL parsing, same default dispatcher and method, and like undici's
 * own front end the options (dispatcher included) are spread into the call.
 */
export function request(url: string | URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { origin, path } = originAndPath(url);
  return apiRequest.call(options.dispatcher ?? getGlobalDispatcher(), {
    ...options,
    origin,
    path,
    method: options.method ?? (options.body ? "PUT" : "GET"),
  } as Dispatcher.RequestOptions);
}
