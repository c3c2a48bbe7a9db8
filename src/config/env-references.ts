/**
 * `auth.profiles.<id>.keyRef.env` names a variable the key is read from (R-AP-2). A variable that is not set
 * leaves the profile without a credential; `detour config check`, `detour doctor` and the gateway's start
 * say so up front, naming the variable and the profile, instead of letting every request find out.
 */
import type { DetourConfig } from "./schema.js";

export interface MissingEnvReference {
  profileId: string;
  provider: string;
  variable: string;
}

export function missingEnvReferences(config: DetourConfig, env: Readonly<Record<string, string | undefined>>): MissingEnvReference[] {
  return Object.entries(config.auth.profiles).flatMap(([profileId, profile]) => {
    const variable = profile.keyRef?.env;
    if (variable === undefined || (env[variable] ?? "").trim() !== "") return [];
    return [{ profileId, provider: profile.provider, variable }];
  });
}

export function describeMissingEnvReference(missing: MissingEnvReference): string {
  return (
    `auth.profiles["${missing.profileId}"].keyRef.env: environment variable ${missing.variable} is not set, so ` +
    `profile ${missing.profileId} has no key; export ${missing.variable} or remove the keyRef`
  );
}
