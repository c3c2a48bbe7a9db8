import { describe, expect, it } from "vitest";
import { toJsonSchema } from "./json-schema.js";

type Node = Record<string, unknown> & { properties?: Record<string, Node> };

function property(schema: Node, ...keys: string[]): Node {
  let node = schema;
  for (const key of keys) {
    const next = node.properties?.[key];
    if (!next) throw new Error(`no property ${keys.join(".")}`);
    node = next;
  }
  return node;
}

describe("toJsonSchema", () => {
  const schema = toJsonSchema() as Node;

  it("R-CF-2: is a draft 2020-12 JSON Schema of every top-level section", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(Object.keys(schema.properties ?? {})).toEqual(["models", "auth", "agents", "cron", "gateway", "state", "sessions", "trace"]);
    expect(schema.required).toBeUndefined();
  });

  it("R-CF-2: carries the documented defaults and enums", () => {
    expect(property(schema, "gateway", "port")).toMatchObject({ type: "integer", default: 4141 });
    expect(property(schema, "gateway", "host")).toMatchObject({ default: "127.0.0.1" });
    expect(property(schema, "state", "backend")).toMatchObject({ enum: ["sqlite", "redis", "memory"], default: "sqlite" });
    expect(property(schema, "auth", "cooldowns", "ladderSeconds")).toMatchObject({ default: [30, 60, 300] });
    expect(property(schema, "agents", "defaults", "timeoutSeconds")).toMatchObject({ default: 600 });
  });

  it("R-ST-6: gateway.ttftTimeoutSeconds has no static default (it follows the model unless set)", () => {
    const ttft = property(schema, "gateway", "ttftTimeoutSeconds");
    expect(ttft).toMatchObject({ type: "number" });
    expect(ttft).not.toHaveProperty("default");
  });

  it("R-CF-2: a bare string or an object is allowed for agents.defaults.model", () => {
    const model = property(schema, "agents", "defaults", "model");
    expect((model.anyOf as Node[]).map((option) => option.type)).toEqual(["string", "object"]);
  });

  it("R-CF-2: unknown keys stay allowed, as in the loader (warnings, not errors)", () => {
    expect(JSON.stringify(schema)).not.toContain('"additionalProperties":false');
  });

  it("R-GW-12: a provider's api may be bedrock (or OpenClaw's bedrock-converse-stream), with its region and AWS profile", () => {
    const provider = property(schema, "models", "providers").additionalProperties as Node;
    expect(JSON.stringify(property(provider, "api"))).toContain('"bedrock"');
    expect(JSON.stringify(property(provider, "api"))).toContain('"bedrock-converse-stream"');
    expect(property(provider, "region")).toMatchObject({ type: "string" });
    expect(property(provider, "awsProfile")).toMatchObject({ type: "string" });
  });

  it("R-CF-2: is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});
