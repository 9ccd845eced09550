import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Responses are described by the zod schemas (the one source of truth), but serialised by a
 * serializer compiled once per route from their JSON Schema (fast-json-stringify), not by zod
 * validating every response before `JSON.stringify`, the costliest step of our own on the request
 * path (docs/performance.md). A compiled serializer writes only the properties the schema names, so a field
 * added by mistake (a digest, a secret) still never leaves. A schema JSON Schema cannot express
 * (a transform, a codec) keeps the zod serializer.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  // Compiled on the route's first response rather than at start, where compiling every route's
  // serializer took about 0.1 s.
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= compileSerializer(route))(data);
};

function compileSerializer(route: Parameters<FastifySerializerCompiler<unknown>>[0]): (data: unknown) => string {
  const schema = route.schema;
  if (schema instanceof z.ZodType) {
    try {
      const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', target: 'draft-7' });
      return fastJson(withNullableTypes(json) as fastJson.AnySchema);
    } catch {
      // falls through to zod's own serializer
    }
  }
  return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
}

/**
 * zod writes `.nullable()` as `anyOf: [X, {type: 'null'}]`; fast-json-stringify resolves every
 * `anyOf` by running a validator per value (a list of 1,000 keys took 3× JSON.stringify). The
 * same meaning as X with fast-json-stringify's `nullable: true` is a plain null check.
 */
function withNullableTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullableTypes);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([key, value]) => [key, withNullableTypes(value)] as const);
  const rewritten = Object.fromEntries(entries) as Record<string, unknown>;
  const anyOf = rewritten.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const [first, second] = anyOf as Array<Record<string, unknown>>;
    const isNull = (branch: Record<string, unknown> | undefined) =>
      branch?.type === 'null' && Object.keys(branch).length === 1;
    const other = isNull(second) ? first : isNull(first) ? second : undefined;
    if (
      other &&
      typeof other.type === 'string' &&
      other.type !== 'null' &&
      !('anyOf' in other) &&
      !('const' in other)
    ) {
      const nullable: Record<string, unknown> = { ...rewritten, ...other, nullable: true };
      delete nullable.anyOf;
      // An enum that may be null must list null too, or the value null fails it.
      if (Array.isArray(other.enum)) nullable.enum = [...(other.enum as unknown[]), null];
      return nullable;
    }
  }
  return rewritten;
}
