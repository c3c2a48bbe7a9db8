/**
 * AWS Bedrock (`api: "bedrock"`): `…/model/{modelId}/{operation}` on the region's runtime endpoint, every
 * request SigV4-signed over its final bytes. Claude models go to InvokeModel (`invoke`,
 * `invoke-with-response-stream`), every other model to Converse (`converse`, `converse-stream`); the wire
 * format writes the matching body (wire/bedrock/).
 *
 * Keys, in this order: the Detour profile's own (an `api_key` credential written
 * `ACCESS_KEY_ID:SECRET_ACCESS_KEY`, or `…:SESSION_TOKEN` for temporary keys), so profiles rotate like any
 * provider's keys; else the provider's `awsProfile` (or AWS_PROFILE) from the shared credentials file; else
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; else the file's `default` profile.
 * The region: the provider's `region`, else the one in a `bedrock-runtime.<region>.amazonaws.com` base URL,
 * else AWS_REGION / AWS_DEFAULT_REGION.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Credential } from "../../core/types.js";
import { isBedrockAnthropicModel } from "../../wire/bedrock/models.js";
import { resolveAwsCredentials, resolveAwsRegion, type AwsCredentials } from "../cloud/aws-credentials.js";
import { bedrockUrl, type BedrockOperation } from "../cloud/bedrock-request.js";
import { signAwsRequest } from "../cloud/sigv4.js";
import { credentialSecret } from "../shared/credentials.js";
import type { OutgoingRequest, ProviderQuirks } from "../shared/provider-quirks.js";
import type { ProviderSettings } from "../shared/provider-settings.js";

/** What Bedrock streams answer with. */
export const AWS_EVENT_STREAM_CONTENT_TYPE = "application/vnd.amazon.eventstream";

/** The signing name of bedrock-runtime. */
const SIGNING_SERVICE = "bedrock";

export function bedrockOperation(model: string, stream: boolean): BedrockOperation {
  if (isBedrockAnthropicModel(model)) return stream ? "invoke-with-response-stream" : "invoke";
  return stream ? "converse-stream" : "converse";
}

/** `https://bedrock-runtime.eu-west-1.amazonaws.com` (and its FIPS and VPC-endpoint forms) → `eu-west-1`. */
export function regionOfBedrockUrl(baseUrl: string): string | undefined {
  try {
    const host = new URL(baseUrl).hostname;
    return /(?:^|\.)bedrock-runtime(?:-fips)?\.([a-z]{2}(?:-[a-z]+)+-\d+)\.(?:vpce\.)?amazonaws\.com(?:\.cn)?$/.exec(host)?.[1];
  } catch {
    return undefined;
  }
}

/** `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]` from a profile's key; undefined for anything else. */
export function awsKeysOfCredential(credential: Credential | undefined): AwsCredentials | undefined {
  const secret = credentialSecret(credential);
  if (!secret) return undefined;
  const [accessKeyId, secretAccessKey, ...token] = secret.split(":");
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = token.join(":");
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** Where the keys and region come from; the environment and the file system are handed in for tests. */
export interface BedrockEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  /** Text of the AWS shared credentials file, or undefined when there is none. */
  readCredentialsFile(): Promise<string | undefined>;
  now(): Date;
}

export const PROCESS_AWS_ENVIRONMENT: BedrockEnvironment = {
  env: process.env,
  async readCredentialsFile() {
    const path = process.env.AWS_SHARED_CREDENTIALS_FILE ?? join(homedir(), ".aws", "credentials");
    try {
      return await readFile(path, "utf8");
    } catch {
      return undefined;
    }
  },
  now: () => new Date(),
};

/** Header names once, in lower case: a signed request must not carry two spellings of one header. */
function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

export function createBedrockQuirks(environment: BedrockEnvironment = PROCESS_AWS_ENVIRONMENT): ProviderQuirks {
  return {
    api: "bedrock",
    endpoint(settings: ProviderSettings) {
      const configPath = `models.providers.${settings.id}`;
      const region = resolveAwsRegion(settings.region ?? regionOfBedrockUrl(settings.baseUrl), environment.env, configPath);
      // The keys outside the profile are looked up once, at the first call without a profile key.
      let ambientKeys: Promise<AwsCredentials> | undefined;
      const ambient = () =>
        (ambientKeys ??= environment.readCredentialsFile().then((file) =>
          resolveAwsCredentials({
            env: environment.env,
            configPath,
            ...(settings.awsProfile ? { profile: settings.awsProfile } : {}),
            ...(file !== undefined ? { sharedCredentialsFile: file } : {}),
          }),
        )).catch((error: unknown) => {
          // A failed lookup is not remembered: the user may export the keys and retry.
          ambientKeys = undefined;
          throw error;
        });
      return {
        url: (model, stream) =>
          bedrockUrl({ region, modelId: model, operation: bedrockOperation(model, stream), baseUrl: settings.baseUrl }),
        headers: (_credential, stream) => ({ accept: stream ? AWS_EVENT_STREAM_CONTENT_TYPE : "application/json" }),
        async sign(request: OutgoingRequest, _signal, credential): Promise<OutgoingRequest> {
          const credentials = awsKeysOfCredential(credential) ?? (await ambient());
          const headers = signAwsRequest({
            method: "POST",
            url: request.url,
            headers: lowerCased(request.headers),
            body: request.body.toString("utf8"),
            region,
            service: SIGNING_SERVICE,
            credentials,
            now: environment.now(),
          });
          return { url: request.url, headers: lowerCased(headers), body: request.body };
        },
      };
    },
  };
}

export const bedrockQuirks: ProviderQuirks = createBedrockQuirks();
