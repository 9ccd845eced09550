import { z } from 'zod';

/** How every payload names a tenant. */
export const tenantRefSchema = z.object({ id: z.string(), slug: z.string(), name: z.string() });
