// The tabs of the account screen (Account.tsx), apart so that the shell's router knows them without the screen's chunk.

/** Each tab by the last segment of its URL (GitBook's tokens are at `/account/developer` too). */
export const ACCOUNT_TABS = { developer: 'API tokens', sessions: 'Signed-in sessions' } as const;
export type AccountTab = keyof typeof ACCOUNT_TABS;
export const isAccountTab = (s: string | undefined): s is AccountTab => s === 'developer' || s === 'sessions';
