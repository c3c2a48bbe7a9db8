/**
 * fastify builds its JSON-schema compilers (ajv and fast-json-stringify, about 120 modules and 9 MB of an
 * idle gateway's memory) when the app is created, whether or not any route has a schema. No gateway route
 * has one — bodies are read by the dialects' own parsers and the lane's scanner — so the same compilers are
 * handed to fastify as factories that load them only when a route with a schema is compiled.
 *
 * They are resolved from fastify's own location (they are its dependencies, not ours), so a strict package
 * layout (pnpm) finds them as fastify would.
 */
import { createRequire } from "node:module";
import type { FastifyServerOptions } from "fastify";

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;
type ValidatorFactory = NonNullable<CompilersFactory["buildValidator"]>;
type SerializerFactory = NonNullable<CompilersFactory["buildSerializer"]>;

const requireFromHere = createRequire(import.meta.url);

function fromFastify<T>(name: string): T {
  return createRequire(requireFromHere.resolve("fastify"))(name) as T;
}

let validatorFactory: ValidatorFactory | undefined;
let serializerFactory: SerializerFactory | undefined;

export const lazySchemaCompilers: CompilersFactory = {
  buildValidator: ((...args: Parameters<ValidatorFactory>) => {
    validatorFactory ??= fromFastify<() => ValidatorFactory>("@fastify/ajv-compiler")();
    return validatorFactory(...args);
  }) as ValidatorFactory,
  buildSerializer: ((...args: Parameters<SerializerFactory>) => {
    serializerFactory ??= fromFastify<() => SerializerFactory>("@fastify/fast-json-stringify-compiler")();
    return serializerFactory(...args);
  }) as SerializerFactory,
};
