import { z } from 'zod';

/** A `limit` query parameter: a whole number from 1 to `max`, 50 when absent. */
export function pageSize(max: number) {
  const message = `Use a whole number from 1 to ${max}.`;
  return z.coerce.number({ message }).int({ message }).min(1, { message }).max(max, { message }).default(50);
}
