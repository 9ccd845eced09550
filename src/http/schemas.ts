import { z } from 'zod';
import { problemSchema } from '../problems/problem-schema.ts';

/** HTTP-level schemas shared by every route: problem responses and path ids. Feature payloads live in their feature. */
export const problemResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, problemSchema.describe(`Problem details (${status})`)]));

export const idParamsSchema = z.object({ id: z.string() });
