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
