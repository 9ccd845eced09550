import Fastify from 'fastify';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loggerOptions } from '../../../src/app/logger.ts';
import { requestLoggerFactory } from '../../../src/http/request-logger.ts';
import { captureLogs } from '../../support/log-capture.ts';

const SECRET = 'ask_thisIsNotARealKeyButItMustNeverBeLoggedEvenSoAbcdefghij012345';

function appWithRequestLogger(level = 'info') {
  const { lines, stream } = captureLogs();
  const logger = pino(loggerOptions({ level }), stream);
  const app = Fastify({
    loggerInstance: logger,
    disableRequestLogging: true,
    childLoggerFactory: requestLoggerFactory,
  });
  const made = vi.spyOn(logger, 'child');
  app.get('/quiet', () => Promise.resolve({ ok: true }));
  app.get('/loud', (request, reply) => {
    request.log.warn({ secret: SECRET, headers: { 'x-api-key': SECRET } }, 'something to say');
    request.log.debug('below the level');
    return reply.send({ ok: true });
  });
  app.get('/own-level', { logLevel: 'debug' }, (request, reply) => {
    request.log.debug('a route at debug');
    return reply.send({ ok: true });
  });
  return { app, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>), made };
}

describe("each request's logger", () => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());

  it('is not made for a request that logs nothing', async () => {
    const { app, lines, made } = appWithRequestLogger();
    close = () => app.close();
    for (let i = 0; i < 3; i++) expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(made).not.toHaveBeenCalled();
    expect(lines()).toEqual([]);
  });

  it("is made once a request logs, and its lines carry the request's id with secrets redacted", async () => {
    const { app, lines, made } = appWithRequestLogger();
    close = () => app.close();
    const response = await app.inject('/loud');
    expect(response.statusCode).toBe(200);
    expect(made).toHaveBeenCalledTimes(1);
    const [line, ...rest] = lines();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ level: 40, msg: 'something to say', reqId: 'req-1', secret: '[REDACTED]' });
    expect(line!.headers).toEqual({ 'x-api-key': '[REDACTED]' });
    expect(JSON.stringify(lines())).not.toContain(SECRET);
  });

  it("keeps a route's own level, as Fastify's own child would", async () => {
    const { app, lines } = appWithRequestLogger('info');
    close = () => app.close();
    await app.inject('/own-level');
    await app.inject('/loud');
    expect(lines().map((line) => line.msg)).toEqual(['a route at debug', 'something to say']);
  });

  it("reports the parent's level until made, and its own after", async () => {
    const { app } = appWithRequestLogger('warn');
    close = () => app.close();
    let seen: string[] = [];
    app.get('/levels', (request, reply) => {
      seen = [request.log.level];
      request.log.level = 'error';
      seen.push(request.log.level, app.log.level);
      return reply.send({ ok: true });
    });
    await app.inject('/levels');
    expect(seen).toEqual(['warn', 'error', 'warn']);
  });
});
