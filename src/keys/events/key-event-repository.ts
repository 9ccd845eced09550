import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { apiKeys, users } from '../../db/schema.ts';
import type { KeyRow, KeyRowWithCreator } from '../key-rows.ts';

/** The reads key events need beyond the key repository's own: a key as an event's ApiKey shows it. */

/** A key row with its creator's e-mail. */
export type KeyRowForEvent<R extends KeyRow = KeyRow> = R & Pick<KeyRowWithCreator, 'creatorEmail'>;

/** The same rows with their creators' e-mails, as an event's ApiKey shows them. */
export async function withCreatorEmails<R extends KeyRow>(
  tx: Db,
  rows: readonly R[],
): Promise<Array<KeyRowForEvent<R>>> {
  const creators = [...new Set(rows.flatMap((row) => (row.createdBy ? [row.createdBy] : [])))];
  const found =
    creators.length === 0
      ? []
      : await tx.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, creators));
  const emails = new Map(found.map((user) => [user.id, user.email]));
  return rows.map((row) => ({ ...row, creatorEmail: row.createdBy ? (emails.get(row.createdBy) ?? null) : null }));
}

/** One key with its creator's e-mail, in any tenant; undefined once it is deleted. */
export async function findKeyForEvent(tx: Db, keyId: string): Promise<KeyRowForEvent | undefined> {
  const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, keyId));
  if (!row) return undefined;
  const [key] = await withCreatorEmails(tx, [row]);
  return key;
}
