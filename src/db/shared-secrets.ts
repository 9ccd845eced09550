import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './handle.ts';
import { settings } from './instance-tables.ts';

/** A secret created once per database and shared by every instance on it. */
export async function sharedSecret(db: Db, name: string): Promise<string> {
  await db
    .insert(settings)
    .values({ key: name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, name));
  return row!.value;
}
