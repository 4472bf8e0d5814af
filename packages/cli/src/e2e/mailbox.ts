import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
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
 * caught: the session cookie (`quire_session=…`) of `email` on the instance at `base`, signed in with `userAgent`
 * (fetch's own, `node`, unless given).
 */
export async function sessionCookie(
  base: string,
  mailbox: Mailbox,
  email: string,
  userAgent?: string,
): Promise<string> {
  const agent: Record<string, string> = userAgent ? { 'user-agent': userAgent } : {};
  const form = async (url: string, cookie = '') => {
    const res = await fetch(url, { headers: { cookie, ...agent } });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = (await res.text()).match(/name="_csrf" value="([^"]+)"/)?.[1] ?? '';
    return { cookie: [cookie, ...set].filter(Boolean).join('; '), csrf };
  };
  const post = (url: string, cookie: string, fields: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...agent },
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

/** What the app's pages must not do, recorded: CSP violations, and every origin requested (`data:`, `blob:` aside). */
export async function watchPage(page: Page): Promise<{ violations: string[]; origins: Set<string> }> {
  const violations: string[] = [];
  const origins = new Set<string>();
  page.on('request', (r) => {
    if (!/^(data|blob):/.test(r.url())) origins.add(new URL(r.url()).origin);
  });
  await page.exposeFunction('reportCspViolation', (v: string) => violations.push(v));
  await page.addInitScript(
    `document.addEventListener('securitypolicyviolation', (e) => reportCspViolation(e.effectiveDirective + ' ' + e.blockedURI))`,
  );
  return { violations, origins };
}

/**
 * Signed-in browser pages for one test file, on the instance `instance()` gives (read when a page is opened: the
 * platform and the mailbox start in `beforeAll`). `open(browser, email)` is a page (1280×900 unless `options` say
 * otherwise) carrying the session cookie of `email`, watched (`watchPage`). Each member signs in once for the file
 * (`cookie(email)`): the instance allows 10 sign-in links an address and 5 an account in 15 minutes.
 */
export function signedInPages(instance: () => { base: string; mailbox: Mailbox }) {
  const sessions = new Map<string, Promise<string>>();
  const cookie = (email: string): Promise<string> => {
    const { base, mailbox } = instance();
    let session = sessions.get(email);
    if (!session) {
      session = sessionCookie(base, mailbox, email);
      sessions.set(email, session);
      session.catch(() => sessions.delete(email));
    }
    return session;
  };
  const open = async (
    browser: Pick<Browser, 'newPage'>,
    email: string,
    options: Parameters<Browser['newPage']>[0] = {},
  ): Promise<{ page: Page; violations: string[]; origins: Set<string> }> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
    const [name, value] = (await cookie(email)).split('=') as [string, string];
    await page.context().addCookies([{ name, value, url: instance().base }]);
    return { page, ...(await watchPage(page)) };
  };
  return { open, cookie };
}
