/**
 * Counts every chat request by key and model and keeps the last few for assertions. Recordings hold the
 * body and headers without credentials; the key appears only as a fingerprint.
 */
import type { MockWireApi } from "./scenario-schema.js";

/** Label used in counts for requests that carried no key. */
export const NO_KEY = "(no key)";

export interface MockCounts {
  total: number;
  byKey: Record<string, number>;
  byModel: Record<string, number>;
  byKeyModel: Record<string, Record<string, number>>;
  /** `GET` model listings (not chat requests, never fault-injected). */
  modelListings: number;
}

export interface RecordedRequest {
  /** 1-based order of arrival. */
  sequence: number;
  api: MockWireApi;
  method: string;
  /** Path and query, with any `key=` query parameter removed. */
  path: string;
  model: string;
  stream: boolean;
  keyFingerprint: string;
  /** Headers without authorization, x-api-key, x-goog-api-key, cookie. */
  headers: Record<string, string>;
  body: unknown;
  /** The fault that answered (`ok` for healthy answers, `bad-request` for unreadable bodies). */
  fault: string;
  ruleName?: string;
}

const SECRET_HEADERS = new Set(["authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie", "proxy-authorization"]);

export function withoutSecretHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SECRET_HEADERS.has(name.toLowerCase())) continue;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return kept;
}

export function withoutKeyParameter(pathAndQuery: string): string {
  const url = new URL(pathAndQuery, "http://mock.invalid");
  url.searchParams.delete("key");
  return `${url.pathname}${url.search}`;
}

export class RequestLog {
  private counts: MockCounts = RequestLog.emptyCounts();
  private recorded: RecordedRequest[] = [];
  private sequence = 0;

  constructor(private readonly recordLimit: number) {}

  private static emptyCounts(): MockCounts {
    return { total: 0, byKey: {}, byModel: {}, byKeyModel: {}, modelListings: 0 };
  }

  nextSequence(): number {
    this.sequence += 1;
    return this.sequence;
  }

  countChat(key: string | undefined, model: string): void {
    const keyLabel = key === undefined || key === "" ? NO_KEY : key;
    this.counts.total += 1;
    this.counts.byKey[keyLabel] = (this.counts.byKey[keyLabel] ?? 0) + 1;
    this.counts.byModel[model] = (this.counts.byModel[model] ?? 0) + 1;
    const perKey = (this.counts.byKeyModel[keyLabel] ??= {});
    perKey[model] = (perKey[model] ?? 0) + 1;
  }

  countModelListing(): void {
    this.counts.modelListings += 1;
  }

  record(request: RecordedRequest): void {
    this.recorded.push(request);
    if (this.recorded.length > this.recordLimit) this.recorded.splice(0, this.recorded.length - this.recordLimit);
  }

  snapshotCounts(): MockCounts {
    return structuredClone(this.counts);
  }

  snapshotRequests(): RecordedRequest[] {
    return structuredClone(this.recorded);
  }

  clear(): void {
    this.counts = RequestLog.emptyCounts();
    this.recorded = [];
    this.sequence = 0;
  }
}
