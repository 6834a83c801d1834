import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TEST_NOW, type TestApp } from '../helpers/harness.js';
import { Outbox } from '../../src/mail/outbox.js';
import { Clock } from '../../src/clock.js';
import { sandboxSms } from '../../src/sms/provider.js';
import type { MailTransport, OutgoingMail } from '../../src/mail/transport.js';

/** A transport that records what it was asked to send, and fails while `failing` is set. */
function recording() {
  const sent: OutgoingMail[] = [];
  const transport: MailTransport & { failing: boolean } = {
    name: 'smtp',
    failing: false,
    async send(mail) {
      // A real transport takes a moment: long enough for another instance's run to overlap.
      await new Promise((r) => setTimeout(r, 2));
      if (transport.failing) throw new Error('SMTP server unavailable');
      sent.push(mail);
    },
  };
  return { sent, transport };
}

describe('outbox delivery', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
    // The app's own outbox would deliver these rows too; only the instances under test may.
    app.services.outbox.stop();
  });
  afterAll(() => app.close());

  const queue = (outbox: Outbox, tag: string, count: number) =>
    app.services.transaction(async (tx) => {
      for (let i = 0; i < count; i++) await outbox.enqueue(tx, { to: `${tag}-${i}@example.com`, subject: `${tag} ${i}`, text: `message ${i}` });
    });

  it('sends each message once when two instances deliver at the same time', async () => {
    const a = recording();
    const b = recording();
    const clock = new Clock(TEST_NOW);
    const first = new Outbox(app.services.prisma, a.transport, sandboxSms(undefined), clock);
    const second = new Outbox(app.services.prisma, b.transport, sandboxSms(undefined), clock);
    await queue(first, 'twice', 150);
    await Promise.all([first.flush(), second.flush(), first.flush(), second.flush()]);
    const to = [...a.sent, ...b.sent].map((m) => m.to).filter((t) => t.startsWith('twice-'));
    expect(to).toHaveLength(150);
    expect(new Set(to).size).toBe(150);
    const left = await app.services.prisma.outboxMessage.count({ where: { to: { startsWith: 'twice-' }, sentAt: null } });
    expect(left).toBe(0);
  });

  it('keeps a message that failed for later, and does not retry it on every run meanwhile', async () => {
    const { sent, transport } = recording();
    let now = Date.parse(TEST_NOW) + 86_400_000;
    const clock = { now: () => now, date: () => new Date(now) } as Clock;
    const outbox = new Outbox(app.services.prisma, transport, sandboxSms(undefined), clock);
    transport.failing = true;
    await queue(outbox, 'later', 1);
    await outbox.flush();
    await outbox.flush();
    const row = await app.services.prisma.outboxMessage.findFirstOrThrow({ where: { to: 'later-0@example.com' } });
    expect(row).toMatchObject({ sentAt: null, attempts: 1, lastError: 'SMTP server unavailable' });

    transport.failing = false;
    await outbox.flush();
    expect(sent.map((m) => m.to)).not.toContain('later-0@example.com');
    now += 31_000;
    await outbox.flush();
    expect(sent.map((m) => m.to)).toContain('later-0@example.com');
    const done = await app.services.prisma.outboxMessage.findFirstOrThrow({ where: { to: 'later-0@example.com' } });
    expect(done.sentAt).not.toBeNull();
    expect(done.attempts).toBe(2);
  });

  it('sends the segments of a long text in their order', async () => {
    const texts: string[] = [];
    const sms = { ...sandboxSms(undefined), send: async (m: { text: string }) => void texts.push(m.text) };
    const outbox = new Outbox(app.services.prisma, recording().transport, sms, new Clock(TEST_NOW));
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    await app.services.transaction((tx) => outbox.enqueue(tx, { channel: 'sms', to: '+15125550199', subject: 'long', text: long }));
    await outbox.flush();
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.map((t) => t.replace(/^\(\d+\/\d+\) /, '')).join(' ')).toBe(long);
  });
});
