import { z } from 'zod';

/** HTTP-level schemas shared by every route: problem bodies and path ids. Feature payloads live in their feature. */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string().describe('Stable machine-readable error code'),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const problemResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, problemSchema.describe(`Problem details (${status})`)]));

export const idParamsSchema = z.object({ id: z.string() });
