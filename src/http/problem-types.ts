import type { z } from 'zod';
import type { problemSchema } from './schemas.ts';

/** RFC 9457 problem details: the one shape of every error response. */
export type Problem = z.infer<typeof problemSchema>;
export type FieldError = NonNullable<Problem['errors']>[number];
