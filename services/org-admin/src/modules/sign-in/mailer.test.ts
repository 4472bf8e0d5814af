import { describe, expect, it } from 'vitest';
import type { Logger } from '@quire/kit';
import { sendMail } from './mailer.ts';

/** A logger that keeps what was written at warn and error. */
function recorder() {
  const lines: { level: string; obj: unknown; msg: string }[] = [];
  const at = (level: string) => (obj: unknown, msg: string) => void lines.push({ level, obj, msg });
  return { lines, log: { warn: at('warn'), error: at('error') } as unknown as Logger };
}

const mail = {
  to: 'bob@acme.io',
  subject: 'Your Quire sign-in link',
  text: 'x',
  link: 'http://quire.test/login/verify?token=t',
};

describe('sign-in mail', () => {
  it('writes the link to the log when no SMTP server is configured', async () => {
    const { lines, log } = recorder();
    await sendMail({ QUIRE_MAIL_FROM: 'Quire <q@x.io>' }, log, mail);
    expect(lines).toEqual([
      {
        level: 'warn',
        obj: { to: 'bob@acme.io', link: mail.link },
        msg: `QUIRE_SMTP_URL is not set: ${mail.subject}: ${mail.link}`,
      },
    ]);
  });

  it('logs a failed delivery instead of failing the request', async () => {
    const { lines, log } = recorder();
    await sendMail({ QUIRE_SMTP_URL: 'smtp://127.0.0.1:9', QUIRE_MAIL_FROM: 'Quire <q@x.io>' }, log, mail);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([['error', 'sign-in mail could not be sent']]);
  });
});
