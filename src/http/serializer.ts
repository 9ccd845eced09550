import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Responses are described by the zod schemas (the one source of truth), but serialised by a
 * serializer compiled once per route from their JSON Schema (fast-json-stringify), not by zod
 * validating every response before `JSON.stringify`: that was the largest item of our own in the
 * whoami profile. A compiled serializer writes only the properties the schema names, so a field
 * added by mistake (a digest, a secret) still never leaves. A schema JSON Schema cannot express
 * (a transform, a codec) keeps the zod serializer.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const schema = route.schema;
  if (schema instanceof z.ZodType) {
    let compiled: ((data: unknown) => string) | undefined;
    try {
      compiled = fastJson(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', target: 'draft-7' }) as fastJson.AnySchema);
    } catch {
      compiled = undefined;
    }
    if (compiled) return compiled;
  }
  return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
};
