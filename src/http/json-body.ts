import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../shared/errors.ts';

/**
 * JSON bodies. Many clients send Content-Type: application/json on every request: an empty body
 * (a DELETE) is no body, not malformed JSON. Anything else goes to Fastify's own prototype-safe
 * parser; what it refuses as well-formed JSON that sets a prototype (`__proto__`, or
 * `constructor.prototype`) is answered as that, naming the property, not as "not valid JSON".
 */
export function addJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    // Fastify's default parser answers through `done`; its return value carries nothing.
    void parseJson(request, body as string, (error, parsed) => {
      const forbidden = error ? forbiddenPropertyOf(body as string) : undefined;
      if (forbidden === undefined) return done(error, parsed);
      const message = `The property "${forbidden.name}" is not allowed: it would set an object's prototype.`;
      done(new InvalidRequestError([{ path: forbidden.path, message }], message));
    });
  });
}

/** The first `__proto__`, or `constructor` holding a `prototype`, in well-formed JSON; undefined otherwise. */
function forbiddenPropertyOf(body: string): { name: string; path: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body); // defines `__proto__` as an own property, so it can be found
  } catch {
    return undefined;
  }
  const walk = (node: unknown, path: string[]): { name: string; path: string } | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    const own = (name: string) => Object.prototype.hasOwnProperty.call(node, name);
    const at = (name: string) => [...path, name].join('.');
    if (own('__proto__')) return { name: '__proto__', path: at('__proto__') };
    const constructor = (node as Record<string, unknown>).constructor;
    if (
      own('constructor') &&
      constructor !== null &&
      typeof constructor === 'object' &&
      Object.hasOwn(constructor, 'prototype')
    )
      return { name: 'constructor', path: at('constructor') };
    for (const [name, value] of Object.entries(node)) {
      const found = walk(value, [...path, name]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(parsed, []);
}
