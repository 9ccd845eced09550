import { and, eq, exists, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../db/handle.ts';
import { users } from '../db/schema.ts';
import { passkeys, recoveryCodes, totpFactors } from '../db/sign-in-tables.ts';
import { hasSecondFactor, type FactorFlags } from './factor-flags.ts';

export type { FactorFlags } from './factor-flags.ts';

// A query builder without a database: the subqueries below are built once, as SQL fragments.
const qb = new QueryBuilder();
const anyRow = (table: typeof totpFactors | typeof passkeys | typeof recoveryCodes, where: SQL | undefined) =>
  exists(
    qb
      .select({ one: sql`1` })
      .from(table)
      .where(where),
  );

/** Whether the user has each kind of factor, as columns of any query that selects `users`. */
export const factorColumns = {
  totp: sql<boolean>`${anyRow(totpFactors, and(eq(totpFactors.userId, users.id), isNotNull(totpFactors.secretSealed)))}`,
  passkey: sql<boolean>`${anyRow(passkeys, eq(passkeys.userId, users.id))}`,
  recoveryCodes: sql<boolean>`${anyRow(recoveryCodes, eq(recoveryCodes.userId, users.id))}`,
};

/** A user's factor flags on their own, where no session query brings them along. */
export class FactorFlagsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async flagsOf(userId: string, tx: Db = this.db): Promise<FactorFlags> {
    const [row] = await tx.select(factorColumns).from(users).where(eq(users.id, userId));
    return row ?? { totp: false, passkey: false, recoveryCodes: false };
  }

  /** Of these users, those with a second factor (the users list shows who has one). */
  async usersWithSecondFactor(userIds: readonly string[]): Promise<ReadonlySet<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .select({ id: users.id, ...factorColumns })
      .from(users)
      .where(inArray(users.id, [...userIds]));
    return new Set(rows.filter(hasSecondFactor).map((row) => row.id));
  }
}
