import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** Test only: an SMTP server catching every mail, its text decoded from quoted-printable; links of `publicUrl`. Usable in hooks. */
export async function startMailbox(publicUrl: string) {
  const mails: { to: string; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const text = raw
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  /** The link of the newest mail to `to` matching `path`, rewritten to the platform's own address (5 s at most). */
  const linkFor = async (to: string, path: string, origin: string): Promise<string> => {
    const pattern = new RegExp(`${publicUrl}${path}\\?token=[\\w-]+`);
    for (let i = 0; i < 100; i++) {
      const link = mails
        .filter((m) => m.to === to)
        .at(-1)
        ?.text.match(pattern)?.[0];
      if (link) {
        mails.length = 0;
        return link.replace(publicUrl, origin);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${path} link was mailed to ${to}`);
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    linkFor,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The mailbox `startMailbox` gives. */
export type Mailbox = Awaited<ReturnType<typeof startMailbox>>;

/**
 * Signs in as a script would, through the sign-in pages' forms (CSRF field and cookie), with the link `mailbox`
 * caught: the session cookie (`quire_session=…`) of `email` on the instance at `base`.
 */
export async function sessionCookie(base: string, mailbox: Mailbox, email: string): Promise<string> {
  const form = async (url: string, cookie = '') => {
    const res = await fetch(url, { headers: { cookie } });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = (await res.text()).match(/name="_csrf" value="([^"]+)"/)?.[1] ?? '';
    return { cookie: [cookie, ...set].filter(Boolean).join('; '), csrf };
  };
  const post = (url: string, cookie: string, fields: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  const login = await form(`${base}/login`);
  await post(`${base}/login`, login.cookie, { email, _csrf: login.csrf });
  const link = await mailbox.linkFor(email, '/login/verify', base);
  const res = await post(`${base}/login/verify`, login.cookie, {
    token: new URL(link).searchParams.get('token')!,
    _csrf: login.csrf,
  });
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('quire_session='))!
    .split(';')[0]!;
}
