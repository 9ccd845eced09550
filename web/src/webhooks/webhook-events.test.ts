import { describe, expect, it } from 'vitest';
import { describeEvent } from '../activity/describe-event.ts';

const webhookEvent = (action: string) => ({
  id: '1',
  at: '2026-11-22T12:00:00.000Z',
  actor: { type: 'user' as const, id: 'u1', email: 'ops@demo.test' },
  action,
  target: { type: 'webhook' as const, id: 'w1', name: 'https://hooks.example.com/in' },
  detail: {},
});

describe('webhook changes in the activity view', () => {
  it('names the endpoint by its URL', () => {
    expect(describeEvent(webhookEvent('webhook.created'))).toBe(
      'Added webhook endpoint “https://hooks.example.com/in”',
    );
    expect(describeEvent(webhookEvent('webhook.secret_rotated'))).toBe(
      'Rotated the signing secret of webhook endpoint “https://hooks.example.com/in”',
    );
    expect(describeEvent(webhookEvent('webhook.deleted'))).toBe(
      'Deleted webhook endpoint “https://hooks.example.com/in”',
    );
  });
});
