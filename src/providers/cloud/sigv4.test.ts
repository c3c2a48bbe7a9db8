import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { amzDate, signAwsRequest } from "./sigv4.js";

// The aws-sig-v4-test-suite's fixed inputs.
const suiteCredentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};
const suiteDate = new Date(Date.UTC(2015, 7, 30, 12, 36, 0));
const suiteScope = "AKIDEXAMPLE/20150830/us-east-1/service/aws4_request";

/**
 * An independent SigV4 written from the published algorithm with node:crypto, to cross-check the
 * library on inputs the suite does not cover (bodies, query strings, colons in paths, session tokens).
 */
function referenceAuthorization(input: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  region: string;
  service: string;
  secret: string;
  accessKeyId: string;
  date: string;
}): string {
  const url = new URL(input.url);
  const sha256 = (data: string) => createHash("sha256").update(data, "utf8").digest("hex");
  const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data, "utf8").digest();
  const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  // Non-S3 services encode each already-encoded path segment once more.
  const canonicalUri = url.pathname
    .split("/")
    .map((segment) => rfc3986(segment))
    .join("/");
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const all: Record<string, string> = { host: url.host };
  for (const [name, value] of Object.entries(input.headers)) all[name.toLowerCase()] = value.trim().replace(/\s+/g, " ");
  const names = Object.keys(all).sort();
  const canonicalHeaders = names.map((n) => `${n}:${all[n]}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [input.method, canonicalUri, query, canonicalHeaders, signedHeaders, sha256(input.body)].join("\n");
  const day = input.date.slice(0, 8);
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", input.date, scope, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secret}`, day), input.region), input.service), "aws4_request");
  const signature = createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  return `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

describe("SigV4 signing", () => {
  it("R-GW-12 amzDate renders the signing moment in SigV4's basic ISO form", () => {
    expect(amzDate(suiteDate)).toBe("20150830T123600Z");
  });

  it.each([
    ["get-vanilla", "GET", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"],
    ["post-vanilla", "POST", "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"],
  ])("R-GW-12 the Authorization header matches AWS's published %s test vector", (_name, method, signature) => {
    const headers = signAwsRequest({
      method,
      url: "https://example.amazonaws.com/",
      region: "us-east-1",
      service: "service",
      credentials: suiteCredentials,
      now: suiteDate,
    });
    expect(headers.Authorization).toBe(`AWS4-HMAC-SHA256 Credential=${suiteScope}, SignedHeaders=host;x-amz-date, Signature=${signature}`);
    expect(headers["X-Amz-Date"]).toBe("20150830T123600Z");
  });

  it.each([
    [
      "a Bedrock invoke with a JSON body and a colon in the model id",
      "POST",
      "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke",
      '{"anthropic_version":"bedrock-2023-05-31","max_tokens":16,"messages":[{"role":"user","content":"hi"}]}',
    ],
    ["a query string in unsorted order", "GET", "https://example.amazonaws.com/a/b?z=1&a=two%20words&m=", ""],
  ])("R-GW-12 the library agrees with an independent node:crypto SigV4 on %s", (_name, method, url, body) => {
    const given = { "Content-Type": "application/json", Accept: "application/json" };
    const headers = signAwsRequest({
      method,
      url,
      headers: given,
      body,
      region: "eu-west-3",
      service: "bedrock",
      credentials: suiteCredentials,
      now: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
    });
    const expected = referenceAuthorization({
      method,
      url,
      // aws4 signs the body's byte length too; the HTTP client sends the same figure.
      headers: {
        ...given,
        ...(body ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
        "X-Amz-Date": "20260102T030405Z",
      },
      body,
      region: "eu-west-3",
      service: "bedrock",
      secret: suiteCredentials.secretAccessKey,
      accessKeyId: suiteCredentials.accessKeyId,
      date: "20260102T030405Z",
    });
    expect(headers.Authorization).toBe(expected);
  });

  it("R-GW-12 temporary keys send and sign X-Amz-Security-Token", () => {
    const headers = signAwsRequest({
      method: "POST",
      url: "https://bedrock-runtime.us-west-2.amazonaws.com/model/m/converse",
      headers: { "Content-Type": "application/json" },
      body: "{}",
      region: "us-west-2",
      service: "bedrock",
      credentials: { ...suiteCredentials, sessionToken: "token/with+chars=" },
      now: suiteDate,
    });
    expect(headers["X-Amz-Security-Token"]).toBe("token/with+chars=");
    expect(headers.Authorization).toContain("x-amz-security-token");
    expect(headers.Host ?? headers.host).toBeUndefined();
  });

  it("R-GW-12 a different secret gives a different signature", () => {
    const sign = (secret: string) =>
      signAwsRequest({
        method: "GET",
        url: "https://example.amazonaws.com/",
        region: "us-east-1",
        service: "service",
        credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: secret },
        now: suiteDate,
      }).Authorization;
    expect(sign("other")).not.toBe(sign(suiteCredentials.secretAccessKey));
  });
});
