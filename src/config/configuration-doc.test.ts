/**
 * docs/configuration.md must mention every key path of the schema (DESIGN §4: the config reference
 * is checked against the code, so it cannot drift).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { toJsonSchema } from "./json-schema.js";
import { RECORD_KEY_META } from "./schema.js";

type JsonSchemaNode = {
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: JsonSchemaNode | boolean;
  items?: JsonSchemaNode;
  prefixItems?: JsonSchemaNode[];
  anyOf?: JsonSchemaNode[];
  [RECORD_KEY_META]?: string;
};

/** Every key path, written as in the docs: `models.providers.<id>.models[].id`. */
function schemaKeyPaths(node: JsonSchemaNode, prefix = ""): string[] {
  const paths: string[] = [];
  for (const option of node.anyOf ?? []) paths.push(...schemaKeyPaths(option, prefix));
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    paths.push(path, ...schemaKeyPaths(child, path));
  }
  if (typeof node.additionalProperties === "object") {
    const placeholder = node[RECORD_KEY_META];
    if (!placeholder) throw new Error(`record at ${prefix} has no ${RECORD_KEY_META} placeholder`);
    const path = `${prefix}.${placeholder}`;
    paths.push(path, ...schemaKeyPaths(node.additionalProperties, path));
  }
  if (node.items) paths.push(...schemaKeyPaths(node.items, `${prefix}[]`));
  return [...new Set(paths)];
}

const documentation = readFileSync(fileURLToPath(new URL("../../docs/configuration.md", import.meta.url)), "utf8");

describe("docs/configuration.md", () => {
  const paths = schemaKeyPaths(toJsonSchema() as JsonSchemaNode);

  it("R-CF-3: the walk finds the nested keys of records, lists and unions", () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        "models.providers.<id>.oauth.tokenUrl",
        "models.providers.<id>.models[].supportsPrefill",
        "auth.profiles.<profileId>.keyRef.env",
        "auth.cooldowns.billingBackoffHoursByProvider.<provider>",
        "agents.defaults.model.fallbacks",
        "agents.defaults.models.<provider/model>.alias",
        "agents.list[].model.primary",
        "cron.jobs[].payload.fallbacks",
        "gateway.auth.adminTokens",
        "state.redis.keyPrefix",
      ]),
    );
    expect(paths.length).toBeGreaterThan(60);
  });

  it("R-CF-3: mentions every key path of the schema, in backticks", () => {
    const missing = paths.filter((path) => !documentation.includes(`\`${path}\``));
    expect(missing).toEqual([]);
  });
});
