/**
 * Where Bedrock's AWS keys come from: keys written in the config win, otherwise the standard AWS
 * environment variables. The environment is passed in (never read here) so the lookup stays pure.
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
  const envId = nonEmpty(sources.env.AWS_ACCESS_KEY_ID);
  const envSecret = nonEmpty(sources.env.AWS_SECRET_ACCESS_KEY);
  if (envId && envSecret) {
    const sessionToken = nonEmpty(sources.env.AWS_SESSION_TOKEN);
    return { accessKeyId: envId, secretAccessKey: envSecret, ...(sessionToken ? { sessionToken } : {}) };
  }
  throw new ConfigError([
    {
      path,
      message:
        "no AWS credentials: set accessKeyId and secretAccessKey on the provider, or export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
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
