import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';
import { ENGINES } from '../../support/databases.ts';
import { rowsOf } from '../../support/harness.ts';
import { useHarness } from '../../support/use.ts';

describe.each(ENGINES)("an app's registration in a tenant's trail (%s)", (engine) => {
  const h = useHarness({ engine });

  it('is written once when several approvals record it at the same moment', async () => {
    const tenant = await h.tenant();
    const app = { type: 'oauth_client', id: `https://app.example/${tenant.id}.json`, name: 'Doc app' } as const;
    const { audit, database } = h.services;
    // On PostgreSQL each call takes a connection of its own, as two instances would.
    await Promise.all(
      Array.from({ length: 8 }, () =>
        audit.recordFirst(database.db, tenant.id, SYSTEM_ACTOR, 'oauth.client_registered', app, { by_document: true }),
      ),
    );
    await audit.recordFirst(database.db, tenant.id, SYSTEM_ACTOR, 'oauth.client_registered', app);

    const { rows } = await rowsOf<{ n: number }>(
      h,
      sql`select count(*)::int as n from audit_events where tenant_id = ${tenant.id} and target_id = ${app.id}`,
    );
    expect(rows).toEqual([{ n: 1 }]);
  });
});
