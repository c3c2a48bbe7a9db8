import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { lazySchemaCompilers } from "./lazy-schema-compilers.js";

describe("lazySchemaCompilers", () => {
  it("gives a route with a schema fastify's own validation and serialization, loaded when that route is compiled", async () => {
    const app = Fastify({ logger: false, schemaController: { compilersFactory: lazySchemaCompilers } });
    app.post(
      "/echo",
      {
        schema: {
          body: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
          response: { 200: { type: "object", properties: { n: { type: "integer" } } } },
        },
      },
      async (request) => ({ n: (request.body as { n: number }).n, dropped: "by the response schema" }),
    );
    try {
      const ok = await app.inject({ method: "POST", url: "/echo", payload: { n: 3 } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ n: 3 });
      const bad = await app.inject({ method: "POST", url: "/echo", payload: { n: "three" } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain("body/n must be integer");
    } finally {
      await app.close();
    }
  });
});
