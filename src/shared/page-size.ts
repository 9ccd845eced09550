import { z } from 'zod';

/**
 * A `limit`: a whole number from 1 to `max`, 50 when absent. A JSON number (MCP) or a query
 * string of digits only: coercing with Number() would also accept '1e2', '0x10', ' 5' and '5.0'.
 */
export function pageSize(max: number) {
  const message = `Use a whole number from 1 to ${max}.`;
  return z
    .union([z.number({ message }), z.string().regex(/^\d{1,9}$/, { message })], { message })
    .pipe(z.coerce.number<string | number>({ message }).int({ message }).min(1, { message }).max(max, { message }))
    .default(50);
}
