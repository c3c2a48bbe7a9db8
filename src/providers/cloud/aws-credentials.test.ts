import { describe, expect, it } from "vitest";
import { ConfigError } from "../../core/errors.js";
import { parseAwsCredentialsFile, resolveAwsCredentials, resolveAwsRegion } from "./aws-credentials.js";

describe("AWS credentials", () => {
  it("R-GW-12 keys in the config win over the environment", () => {
    expect(
      resolveAwsCredentials({
        configured: { accessKeyId: "AKIA_CONF", secretAccessKey: "conf-secret" },
        env: { AWS_ACCESS_KEY_ID: "AKIA_ENV", AWS_SECRET_ACCESS_KEY: "env-secret", AWS_SESSION_TOKEN: "env-token" },
      }),
    ).toEqual({ accessKeyId: "AKIA_CONF", secretAccessKey: "conf-secret" });
  });

  it("R-GW-12 the standard AWS variables are used when the config has no keys, session token included", () => {
    expect(
      resolveAwsCredentials({
        env: { AWS_ACCESS_KEY_ID: "AKIA_ENV", AWS_SECRET_ACCESS_KEY: "env-secret", AWS_SESSION_TOKEN: "env-token" },
      }),
    ).toEqual({ accessKeyId: "AKIA_ENV", secretAccessKey: "env-secret", sessionToken: "env-token" });
  });

  it("R-GW-12 half a key pair in the config is refused instead of silently using the environment", () => {
    expect(() =>
      resolveAwsCredentials({
        configured: { accessKeyId: "AKIA_CONF" },
        env: { AWS_ACCESS_KEY_ID: "AKIA_ENV", AWS_SECRET_ACCESS_KEY: "env-secret" },
      }),
    ).toThrow(ConfigError);
  });

  it("R-GW-12 no keys anywhere is a config error that names the variables and shows no secret", () => {
    let caught: unknown;
    try {
      resolveAwsCredentials({ env: { AWS_SECRET_ACCESS_KEY: "lonely-secret" }, configPath: "providers.bedrock-eu" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toContain("providers.bedrock-eu");
    expect(message).toContain("AWS_ACCESS_KEY_ID");
    expect(message).not.toContain("lonely-secret");
  });

  it.each([
    ["configured", "eu-west-3", { AWS_REGION: "us-east-1" }, "eu-west-3"],
    ["AWS_REGION", undefined, { AWS_REGION: "us-east-1", AWS_DEFAULT_REGION: "us-west-2" }, "us-east-1"],
    ["AWS_DEFAULT_REGION", undefined, { AWS_DEFAULT_REGION: "us-west-2" }, "us-west-2"],
  ])("R-GW-12 the region comes from %s", (_source, configured, env, expected) => {
    expect(resolveAwsRegion(configured, env)).toBe(expected);
  });

  it("R-GW-12 no region anywhere is a config error", () => {
    expect(() => resolveAwsRegion(undefined, {})).toThrow(/AWS_REGION/);
  });

  const sharedFile = [
    "# written by aws configure",
    "[default]",
    "aws_access_key_id = AKIA_DEFAULT",
    "aws_secret_access_key = default-secret",
    "",
    "[work]",
    "; temporary keys",
    "AWS_ACCESS_KEY_ID=AKIA_WORK",
    "aws_secret_access_key=work/secret+",
    "aws_session_token = work-token",
    "[empty]",
  ].join("\r\n");

  it.each([
    ["default", { accessKeyId: "AKIA_DEFAULT", secretAccessKey: "default-secret" }],
    ["work", { accessKeyId: "AKIA_WORK", secretAccessKey: "work/secret+", sessionToken: "work-token" }],
    ["empty", undefined],
    ["missing", undefined],
  ])("R-GW-12 the shared credentials file's %s profile is read", (profile, expected) => {
    expect(parseAwsCredentialsFile(sharedFile, profile)).toEqual(expected);
  });

  it("R-GW-12 a named profile beats the environment, and the default profile comes after it", () => {
    const env = { AWS_ACCESS_KEY_ID: "AKIA_ENV", AWS_SECRET_ACCESS_KEY: "env-secret" };
    expect(resolveAwsCredentials({ env, profile: "work", sharedCredentialsFile: sharedFile }).accessKeyId).toBe("AKIA_WORK");
    expect(resolveAwsCredentials({ env: { ...env, AWS_PROFILE: "work" }, sharedCredentialsFile: sharedFile }).accessKeyId).toBe(
      "AKIA_WORK",
    );
    expect(resolveAwsCredentials({ env, sharedCredentialsFile: sharedFile }).accessKeyId).toBe("AKIA_ENV");
    expect(resolveAwsCredentials({ env: {}, sharedCredentialsFile: sharedFile }).accessKeyId).toBe("AKIA_DEFAULT");
  });

  it("R-GW-12 a named profile without keys is a config error, not a silent fall back to the environment", () => {
    expect(() =>
      resolveAwsCredentials({
        env: { AWS_ACCESS_KEY_ID: "AKIA_ENV", AWS_SECRET_ACCESS_KEY: "env-secret" },
        profile: "empty",
        sharedCredentialsFile: sharedFile,
      }),
    ).toThrow(/"empty"/);
  });
});
