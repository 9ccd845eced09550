import { describe, expect, it } from 'vitest';
import { extractPresentedKey } from '../../../src/keys/check/extract.ts';

const A = `ask_${'A'.repeat(64)}`;
const B = `ask_${'B'.repeat(64)}`;
const none = { xApiKey: undefined, authorization: undefined, queryKey: undefined };

describe('extractPresentedKey', () => {
  it('finds the key in X-API-Key, in Authorization: Bearer and in the api_key query parameter', () => {
    expect(extractPresentedKey({ ...none, xApiKey: A })).toEqual({ kind: 'key', secret: A });
    expect(extractPresentedKey({ ...none, authorization: `Bearer ${A}` })).toEqual({ kind: 'key', secret: A });
    expect(extractPresentedKey({ ...none, authorization: `bearer   ${A}` })).toEqual({ kind: 'key', secret: A });
    expect(extractPresentedKey({ ...none, queryKey: [A] })).toEqual({ kind: 'key', secret: A });
  });

  it('reports no key when nothing is sent, when values are empty, or when Authorization is not Bearer', () => {
    expect(extractPresentedKey(none)).toEqual({ kind: 'none' });
    expect(extractPresentedKey({ xApiKey: '', authorization: 'Bearer ', queryKey: [''] })).toEqual({ kind: 'none' });
    expect(extractPresentedKey({ ...none, authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })).toEqual({
      kind: 'none',
    });
  });

  it('accepts the same key sent several ways', () => {
    expect(extractPresentedKey({ xApiKey: A, authorization: `Bearer ${A}`, queryKey: [A] })).toEqual({
      kind: 'key',
      secret: A,
    });
    expect(extractPresentedKey({ ...none, queryKey: [A, A] })).toEqual({ kind: 'key', secret: A });
  });

  it('refuses two different keys, whichever places they come from', () => {
    expect(extractPresentedKey({ ...none, xApiKey: A, authorization: `Bearer ${B}` })).toEqual({ kind: 'ambiguous' });
    expect(extractPresentedKey({ ...none, xApiKey: A, queryKey: [B] })).toEqual({ kind: 'ambiguous' });
    expect(extractPresentedKey({ ...none, authorization: `Bearer ${A}`, queryKey: [B] })).toEqual({
      kind: 'ambiguous',
    });
    expect(extractPresentedKey({ ...none, queryKey: [A, B] })).toEqual({ kind: 'ambiguous' });
    expect(extractPresentedKey({ ...none, xApiKey: [A, B] })).toEqual({ kind: 'ambiguous' });
  });

  it('passes a malformed value on unchanged so the check can call it invalid', () => {
    expect(extractPresentedKey({ ...none, xApiKey: 'not-a-key' })).toEqual({ kind: 'key', secret: 'not-a-key' });
  });

  it('reads a repeated X-API-Key header (joined by Node with ", "): two different keys are ambiguous, one key twice is one', () => {
    expect(extractPresentedKey({ ...none, xApiKey: `${A}, ${B}` })).toEqual({ kind: 'ambiguous' });
    expect(extractPresentedKey({ ...none, xApiKey: `${A}, ${A}` })).toEqual({ kind: 'key', secret: A });
    expect(extractPresentedKey({ ...none, xApiKey: [A, B] })).toEqual({ kind: 'ambiguous' });
  });
});
