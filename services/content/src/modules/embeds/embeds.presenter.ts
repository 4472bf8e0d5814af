import type { Embed } from '@quire/contracts';

/** An embed as GitBook answers one: `{type: 'link', title, site, icon?}` or `{type: 'rich', …, html}`. */
export const presentEmbed = (embed: Embed): Embed => embed;
