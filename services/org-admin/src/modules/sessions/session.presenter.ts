import type { Actor, OperationOutput, ops, UserActor } from '@quire/contracts';
import type { ISession } from './session.entity.ts';

type UserSession = OperationOutput<typeof ops.listUserSessions>['items'][number];

/** Browsers by a mark of their User-Agent, the first that matches (Edge and Opera say Chrome too, Chrome says Safari). */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\b(?:HeadlessChrome|Chrome|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
];

/** Systems by a mark of their User-Agent, the first that matches (Android says Linux, iOS says Mac OS X). */
const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const nameIn = (table: [RegExp, string][], ua: string) => table.find(([mark]) => mark.test(ua))?.[1];

/** A short name of the browser of a User-Agent: "Firefox on Linux", "Safari on iOS"; "Unknown browser" without one. */
export function browserName(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browser = nameIn(BROWSERS, ua);
  const system = nameIn(SYSTEMS, ua);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : 'Unknown browser');
}

/** A session as its owner sees it (never its cookie nor the cookie's hash): `current` when the call is made with it. */
export const presentUserSession = (s: ISession, actor: UserActor): UserSession => ({
  object: 'user-session',
  id: s.id,
  createdAt: s.createdAt.toISOString(),
  lastSeenAt: s.lastSeenAt.toISOString(),
  expiresAt: s.expiresAt.toISOString(),
  browser: browserName(s.userAgent),
  ...(s.userAgent ? { userAgent: s.userAgent } : {}),
  ...(s.address ? { ipAddress: s.address } : {}),
  current: actor.sessionId === s.id,
});

/** Who holds a session, for the gateway: its user's actor names the session (the app's calls are made with it). */
export const presentSessionActor = (found: { session: ISession | null; actor: Actor | null; csrf: string | null }) => ({
  actor: found.session && found.actor?.kind === 'user' ? { ...found.actor, sessionId: found.session.id } : found.actor,
  csrf: found.csrf,
});
