/** A `LIKE`/`ILIKE` pattern matching values that contain `text` literally (`%`, `_` and `\` escaped). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
