/** A reusable content as GitBook answers one (never reached: Quire stores none yet, see the loader). */
export const presentReusableContent = <T extends { id: string; title: string }>(content: T): T => content;

/** The document of a reusable content (never reached: Quire stores none yet, see the loader). */
export const presentReusableContentDocument = <T extends { object: 'document'; nodes: Record<string, unknown>[] }>(
  document: T,
): T => document;
