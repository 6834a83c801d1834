import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { logInternalError, scrubSecrets } from '../../src/errors.js';
import { newToken } from '../../src/auth/tokens.js';

describe('logInternalError', () => {
  it('keeps the cause and scrubs every kind of token and key the service issues', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    // Every prefix newToken is called with (grep newToken), and an access token (a JWT).
    const secrets = ['sk_live_', 'sk_pro_', 'sk_pub_', 'mt_', 'ct_', 'rt_', 'kr_', 'pac_', 'prt_'].map((p) => newToken(p));
    secrets.push('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJvIn0.c2lnbmF0dXJl');
    logInternalError(logger, new Error(`lookup failed for ${secrets.join(', ')}`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('lookup failed for');
    for (const secret of secrets) expect(lines[0], secret.slice(0, 4)).not.toContain(secret);
  });
});

describe('scrubSecrets', () => {
  it("removes the payment provider's keys, webhook secrets and sandbox links as well", () => {
    const text = `SMTP said 550 for https://x.test/manage/${newToken('mt_')}; stripe sk_test_51Habc rk_live_9x whsec_abc sbxlink_q1`;
    const scrubbed = scrubSecrets(text);
    expect(scrubbed).toContain('SMTP said 550 for https://x.test/manage/[secret]');
    for (const part of ['mt_', 'sk_test_', 'rk_live_', 'whsec_', 'sbxlink_']) expect(scrubbed).not.toContain(part);
  });
});
