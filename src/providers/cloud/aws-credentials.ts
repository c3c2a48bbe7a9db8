/**
 * Where Bedrock's AWS keys come from, in the AWS SDKs' order: keys written in the config; a named profile
 * (config or AWS_PROFILE) from the shared credentials file; the standard AWS environment variables; the
 * file's `default` profile. The environment and the file's text are passed in so the lookup stays pure.
 */
import { ConfigError } from "../../core/errors.js";

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Present for temporary (STS) credentials; sent as `X-Amz-Security-Token`. */
  sessionToken?: string;
}

export interface AwsCredentialSources {
  /** Keys from the provider's config entry; used as a whole when both key parts are set. */
  configured?: Partial<AwsCredentials>;
  /** Usually `process.env`, handed in by the caller. */
  env: Readonly<Record<string, string | undefined>>;
  /** Config path named in the error, e.g. `providers.bedrock`. */
  configPath?: string;
  /** Profile named in the config; AWS_PROFILE otherwise. */
  profile?: string;
  /** Text of the shared credentials file (`~/.aws/credentials`), when it exists. */
  sharedCredentialsFile?: string;
}

/** Reads one profile's keys from the INI text of an AWS shared credentials file. */
export function parseAwsCredentialsFile(text: string, profile: string): AwsCredentials | undefined {
  let section: string | undefined;
  const values: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[\s*(?:profile\s+)?([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    const pair = /^([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (pair && section === profile) values[pair[1]!.toLowerCase()] = pair[2]!.trim();
  }
  const accessKeyId = nonEmpty(values.aws_access_key_id);
  const secretAccessKey = nonEmpty(values.aws_secret_access_key);
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = nonEmpty(values.aws_session_token);
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function resolveAwsCredentials(sources: AwsCredentialSources): AwsCredentials {
  const configured = sources.configured;
  const configuredId = nonEmpty(configured?.accessKeyId);
  const configuredSecret = nonEmpty(configured?.secretAccessKey);
  if (configuredId && configuredSecret) {
    const sessionToken = nonEmpty(configured?.sessionToken);
    return { accessKeyId: configuredId, secretAccessKey: configuredSecret, ...(sessionToken ? { sessionToken } : {}) };
  }
  const path = sources.configPath ?? "providers.bedrock";
  if (configuredId || configuredSecret) {
    // Half a key pair in the config is a typo, not a wish to fall back to the environment.
    throw new ConfigError([
      {
        path,
        message: "set both accessKeyId and secretAccessKey for AWS, or neither to use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
      },
    ]);
  }
  const namedProfile = nonEmpty(sources.profile) ?? nonEmpty(sources.env.AWS_PROFILE);
  if (namedProfile) {
    // A named profile is an explicit choice: it is used or reported, never silently replaced by the environment.
    const fromFile = sources.sharedCredentialsFile ? parseAwsCredentialsFile(sources.sharedCredentialsFile, namedProfile) : undefined;
    if (fromFile) return fromFile;
    throw new ConfigError([
      {
        path,
        message: `the AWS profile "${namedProfile}" has no aws_access_key_id and aws_secret_access_key in the shared credentials file`,
      },
    ]);
  }
  const envId = nonEmpty(sources.env.AWS_ACCESS_KEY_ID);
  const envSecret = nonEmpty(sources.env.AWS_SECRET_ACCESS_KEY);
  if (envId && envSecret) {
    const sessionToken = nonEmpty(sources.env.AWS_SESSION_TOKEN);
    return { accessKeyId: envId, secretAccessKey: envSecret, ...(sessionToken ? { sessionToken } : {}) };
  }
  const fromDefault = sources.sharedCredentialsFile ? parseAwsCredentialsFile(sources.sharedCredentialsFile, "default") : undefined;
  if (fromDefault) return fromDefault;
  throw new ConfigError([
    {
      path,
      message:
        "no AWS credentials: set accessKeyId and secretAccessKey on the provider, export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or add a default profile to ~/.aws/credentials",
    },
  ]);
}

/** The configured region wins, then AWS_REGION, then AWS_DEFAULT_REGION (the AWS CLI's order). */
export function resolveAwsRegion(
  configured: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  configPath = "providers.bedrock",
): string {
  const region = nonEmpty(configured) ?? nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION);
  if (!region) {
    throw new ConfigError([{ path: configPath, message: "no AWS region: set region on the provider or export AWS_REGION" }]);
  }
  return region;
}
