/** An AI answer (never reached: Quire has no AI search yet, see the loader). */
export const presentSiteAnswer = <T extends Record<string, unknown>>(answer: T): T => answer;
