import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { backgroundLogger } from '../../../src/app/logger.ts';
import { ENGINES } from '../../support/databases.ts';
import { useHarness } from '../../support/use.ts';

describe.each(ENGINES)('a failed query in the log (%s)', (engine) => {
  const h = useHarness({ engine });

  it('gives the cause, the statement shortened and where it ran; never the parameters', async () => {
    const parameter = 'a value that is data, not a diagnosis';
    const padding = Array.from({ length: 40 }, (_, i) => `, ${i} as column_${i}`).join('');
    const failure: unknown = await h.services.database.db
      .execute(sql.raw(`select name${padding} from no_such_table where name = `).append(sql`${parameter}`))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(DrizzleQueryError);

    const lines: string[] = [];
    const log = backgroundLogger({ level: 'info', stream: { write: (line: string) => void lines.push(line) } });
    log.warn({ err: failure }, 'background work failed');

    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(parameter);
    expect(lines[0]).not.toContain('column_39');
    const { err } = JSON.parse(lines[0]!) as { err: Record<string, string> & { cause: Record<string, string> } };
    expect(err.type).toBe('DrizzleQueryError');
    expect(err.message).toBe('query failed: relation "no_such_table" does not exist');
    expect(err.cause.code).toBe('42P01');
    expect(err.query).toMatch(/^select name, 0 as column_0, .{90,}…$/);
    expect(err.stack).toMatch(/^at /);
    expect(err.stack).not.toContain('Failed query');
  });
});
