import { METHODS } from 'node:http';
import { describe, expect, it } from 'vitest';
import { REQUEST_OUTCOMES } from '../../../src/request-log/request-log-schemas.ts';
import {
  STORED_METHODS,
  methodCode,
  methodOf,
  outcomeCode,
  outcomeOfCode,
} from '../../../src/request-log/stored-codes.ts';

/** The request log stores a method and an outcome as codes (docs/request-log.md (The row)). */
describe('request log codes', () => {
  it("has a code for every method Node's parser accepts", () => {
    expect([...METHODS].filter((method) => !STORED_METHODS.includes(method as never))).toEqual([]);
  });

  it('reads back every method and outcome it stores, ok as 0', () => {
    expect(STORED_METHODS.map((method) => methodOf(methodCode(method)))).toEqual([...STORED_METHODS]);
    expect(REQUEST_OUTCOMES.map((outcome) => outcomeOfCode(outcomeCode(outcome)))).toEqual([...REQUEST_OUTCOMES]);
    expect(outcomeCode('ok')).toBe(0);
  });
});
