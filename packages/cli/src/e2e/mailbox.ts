import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { type Boot, bootstrap, type Platform, startPlatform } from './harness.ts';

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
  const login = await formOf(`${base}/login`, '', agent);
  await postForm(`${base}/login`, login.cookie, { email, _csrf: login.csrf }, agent);
  const link = await mailbox.linkFor(email, '/login/verify', base);
  const res = await postForm(
    `${base}/login/verify`,
    login.cookie,
    { token: new URL(link).searchParams.get('token')!, _csrf: login.csrf },
    agent,
  );
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('quire_session='))!
    .split(';')[0]!;
}

/** A form page fetched without a browser: its cookies (`cookie` and those it sets) and CSRF token, and its HTML. */
export async function formOf(
  url: string,
  cookie = '',
  headers: Record<string, string> = {},
): Promise<{ cookie: string; csrf: string; html: string }> {
  const res = await fetch(url, { headers: { cookie, ...headers } });
  const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const html = await res.text();
  return {
    cookie: [cookie, ...set].filter(Boolean).join('; '),
    csrf: html.match(/name="_csrf" value="([^"]+)"/)?.[1] ?? '',
    html,
  };
}

/** A form posted as a script would (URL-encoded `fields`, with `cookie`), redirects not followed. */
export function postForm(
  url: string,
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
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

/** The public URL of the instances that mail (`useMailedInstance`): the links of their mails point there. */
export const PUBLIC_URL = 'http://quire.test';

/**
 * An instance that mails, for one test file: its public URL `PUBLIC_URL`, its mails caught by a mailbox, organization
 * Acme bootstrapped by Ann (known to the content service), `env` added to its environment. Started in `beforeAll`,
 * stopped in `afterAll`; the handles are filled once started. `signedIn(browser, email)` opens a signed-in page
 * (`signedInPages`), `sessions.cookie(email)` is a member's session cookie, `v1` a /v1 call with a bearer token,
 * `changeRequest` one of Ann's.
 */
export function useMailedInstance(env: Record<string, string> = {}) {
  const mailbox = {} as Mailbox;
  const p = {} as Platform;
  const acme = {} as Boot;
  beforeAll(async () => {
    Object.assign(mailbox, await startMailbox(PUBLIC_URL));
    Object.assign(
      p,
      await startPlatform({ env: { QUIRE_PUBLIC_URL: PUBLIC_URL, QUIRE_SMTP_URL: mailbox.url, ...env } }),
    );
    Object.assign(acme, await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann'));
    await p.awaitMembers([acme.user.id]);
  });
  afterAll(async () => {
    await p.stop?.();
    await mailbox.close?.();
  });
  const sessions = signedInPages(() => ({ base: p.url, mailbox }));
  /** A /v1 call with a bearer token (JSON in and out): the parsed answer, a failure if not 2xx. */
  const v1 = async (token: string, method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${p.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  /** A change request of Ann's in `space` with these content changes (and subject). */
  const changeRequest = async (space: string, subject: string, changes: unknown[]) => {
    const cr = await v1(acme.token, 'POST', `/spaces/${space}/change-requests`, { subject });
    await v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/content`, { changes });
    return cr as { id: string; number: number };
  };
  return { p, acme, mailbox, sessions, signedIn: sessions.open, v1, changeRequest };
}
