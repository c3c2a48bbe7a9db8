/**
 * AWS Signature Version 4 for Bedrock requests, delegated to the `aws4` library. The signing moment is
 * passed in (the caller owns the clock), so the same inputs always give the same signature.
 */
import aws4 from "aws4";
import type { AwsCredentials } from "./aws-credentials.js";

export interface SigV4Request {
  method: string;
  url: string;
  headers?: Readonly<Record<string, string>>;
  body?: string;
  region: string;
  /** The signing name: `bedrock` for bedrock-runtime. */
  service: string;
  credentials: AwsCredentials;
  now: Date;
}

/** `20150830T123600Z`: the ISO basic format SigV4 signs. */
export function amzDate(now: Date): string {
  return now.toISOString().replace(/[:-]|\.\d{3}/g, "");
}

/**
 * The headers to send: the given ones plus `X-Amz-Date`, `Authorization` and, for temporary keys,
 * `X-Amz-Security-Token`, and `Content-Length` when there is a body (it is signed, so the client must send
 * exactly that body). The request itself is not sent.
 */
export function signAwsRequest(request: SigV4Request): Record<string, string> {
  const url = new URL(request.url);
  const headers: Record<string, string> = { ...request.headers, "X-Amz-Date": amzDate(request.now) };
  const options: aws4.Request = {
    method: request.method.toUpperCase(),
    host: url.host,
    path: `${url.pathname}${url.search}`,
    headers,
    region: request.region,
    service: request.service,
    ...(request.body !== undefined ? { body: request.body } : {}),
  };
  aws4.sign(options, {
    accessKeyId: request.credentials.accessKeyId,
    secretAccessKey: request.credentials.secretAccessKey,
    ...(request.credentials.sessionToken ? { sessionToken: request.credentials.sessionToken } : {}),
  });
  const signed: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) signed[name] = String(value);
  }
  // aws4 adds Host for its own canonical form; fetch sets Host itself and refuses to be told.
  delete signed.Host;
  delete signed.host;
  return signed;
}

/** What a signed request's `Authorization` header names: its key, scope and signed headers. */
export interface AwsAuthorization {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

export function parseAwsAuthorization(header: string | undefined): AwsAuthorization | undefined {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      header?.trim() ?? "",
    );
  if (!match) return undefined;
  const [, accessKeyId, date, region, service, signedHeaders, signature] = match as unknown as string[];
  return {
    accessKeyId: accessKeyId as string,
    date: date as string,
    region: region as string,
    service: service as string,
    signedHeaders: (signedHeaders as string).split(";"),
    signature: signature as string,
  };
}

export type AwsSignatureCheck = { ok: true; accessKeyId: string } | { ok: false; problem: string; accessKeyId?: string };

/**
 * Checks a received request's SigV4 signature by signing the same method, path, signed headers and body again
 * with the secret of the key it names — what AWS does, for servers that stand in for it (the mock provider).
 */
export function verifyAwsSignature(request: {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
  secretFor(accessKeyId: string): string | undefined;
}): AwsSignatureCheck {
  const auth = parseAwsAuthorization(single(request.headers.authorization));
  if (!auth) return { ok: false, problem: "missing or malformed AWS4-HMAC-SHA256 Authorization header" };
  const secret = request.secretFor(auth.accessKeyId);
  if (secret === undefined) return { ok: false, problem: "unknown access key", accessKeyId: auth.accessKeyId };
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) {
    const value = single(request.headers[name]);
    if (value === undefined) return { ok: false, problem: `signed header ${name} is missing`, accessKeyId: auth.accessKeyId };
    headers[name] = value;
  }
  const options: aws4.Request = {
    method: request.method.toUpperCase(),
    host: headers.host ?? "",
    path: request.path,
    headers,
    region: auth.region,
    service: auth.service,
    body: request.body,
  };
  const sessionToken = headers["x-amz-security-token"];
  aws4.sign(options, { accessKeyId: auth.accessKeyId, secretAccessKey: secret, ...(sessionToken ? { sessionToken } : {}) });
  const expected = parseAwsAuthorization(String(options.headers?.Authorization ?? ""));
  return expected?.signature === auth.signature
    ? { ok: true, accessKeyId: auth.accessKeyId }
    : { ok: false, problem: "signature does not match", accessKeyId: auth.accessKeyId };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
