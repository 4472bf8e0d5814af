/** The organization's settings pages (`/o/{org}/settings/{tab}`), in the shell: the router checks the tab. */
export const TITLES = { members: 'Members', teams: 'Teams', audit: 'Audit log', 'merge-rules': 'Merge rules' } as const;
export type Tab = keyof typeof TITLES;
export const isTab = (s: string | undefined): s is Tab => !!s && Object.hasOwn(TITLES, s);
