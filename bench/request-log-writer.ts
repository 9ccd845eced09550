/**
 * The request log's writer and export on their own (docs/request-log.md), in the bench process:
 * BENCH_REQUEST_LOG_ENTRIES records (200,000; 1,000,000 with --long) appended as the hook appends
 * them, then written in batches, timed: entries per second the writer sustains on this engine.
 * Then the NDJSON export of all of them through the service, a batch at a time, with the growth
 * of this process's resident memory sampled throughout: flat means constant memory.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices } from '../src/app/services.ts';
import { loadConfig } from '../src/config.ts';
import { RequestLogRepository } from '../src/request-log/request-log-repository.ts';
import { RequestLogWriter } from '../src/request-log/request-log-writer.ts';
import { SYSTEM_ACTOR } from '../src/shared/actor.ts';
import { signedInAs } from '../test/support/actors.ts';
import { recordFor } from '../test/support/request-log-kit.ts';
import { atMost, type Row } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';

export const requestLogWriter: Scenario = {
  name: 'requestlog-writer',
  title: '13. request log writer and export',
  engines: ['pglite', 'postgres'],
  alone: true,
  async run({ engine, databaseUrl, settings: s }) {
    const entries = Number(process.env.BENCH_REQUEST_LOG_ENTRIES ?? (process.argv.includes('--long') ? 1e6 : 2e5));
    const config = {
      ...loadConfig({}),
      databaseUrl: engine === 'postgres' ? databaseUrl : undefined,
      dataDir: mkdtempSync(join(tmpdir(), 'airkey-bench-log-')),
      logLevel: 'warn',
    };
    const services = await createServices(config);
    await services.start();
    try {
      const slug = `log-${process.pid}-${Date.now()}`;
      const tenant = await services.accounts.tenants.create(SYSTEM_ACTOR, { name: 'Log Air', slug });
      const email = `${slug}@example.test`;
      await services.accounts.users.create(SYSTEM_ACTOR, tenant.id, {
        email,
        name: 'Bench',
        password: 'bench-password-1',
        roles: ['system_administrator'],
      });
      const actor = signedInAs(await services.accounts.users.requireByEmail(email));
      const writer = new RequestLogWriter({
        // As the server's own writer (src/app/request-log-setup.ts, src/request-log/writer-worker.ts), into
        // the log's store: on PGlite its own, each statement run by the store's thread.
        store: new RequestLogRepository(services.requestLog.entries, engine === 'postgres' ? 'binary' : 'text'),
        capacity: entries,
        intervalMs: 3_600_000,
        parallel: engine === 'postgres' ? 2 : 1,
        report: { failed: (error) => s.log(`    writer failed: ${String(error)}`), succeeded: () => {} },
      });
      const keyId = randomUUID();
      const now = Date.now();
      // Spread over the last hour, as a busy hour of requests would be.
      for (let i = 0; i < entries; i++) writer.record(recordFor(tenant.id, now - (i % 3_600_000), keyId));
      const started = performance.now();
      await writer.flush();
      const perSecond = writer.written / ((performance.now() - started) / 1000);
      s.log(`    writer on ${engine}: ${writer.written} of ${entries} in batches, ${fmt(perSecond)} entries/s`);

      global.gc?.();
      const base = process.memoryUsage().rss;
      let peak = base;
      let lines = 0;
      let bytes = 0;
      // Each entry becomes its line as the route writes it; the line is then dropped, as a socket would take it.
      for await (const entry of services.requestLog.reader.export(actor, { key: keyId })) {
        bytes += `${JSON.stringify(entry)}\n`.length;
        if (++lines % 1_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
      const growthMb = (peak - base) / 2 ** 20;
      s.log(
        `    export on ${engine}: ${lines} lines (${(bytes / 2 ** 20).toFixed(0)} MB), resident memory grew ${growthMb.toFixed(1)} MB at most`,
      );
      const rows: Row[] = [
        {
          what: `13. request log writer (${engine}): entries written per second, ${fmt(entries)} in batches of 1,000`,
          value: fmt(perSecond),
          reference: '',
          ratio: '',
          measured: { value: perSecond, ratio: NaN },
          purpose: 'for information',
        },
        {
          what: `13. request log export (${engine}): growth of resident memory while streaming ${fmt(lines)} entries, MB`,
          value: growthMb.toFixed(1),
          reference: '',
          ratio: '',
          measured: { value: growthMb, ratio: NaN },
          target: atMost(64, 'value', ' MB'),
        },
      ];
      return rows;
    } finally {
      await services.close();
    }
  },
};
