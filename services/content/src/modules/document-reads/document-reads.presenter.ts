type JsonDocument = { object: 'document'; data: Record<string, unknown>; nodes: Record<string, unknown>[] };

/** A document as GitBook answers one by id: the JSON document itself (`{object: 'document', data, nodes}`). */
export const presentJsonDocument = (document: Record<string, unknown>): JsonDocument => document as JsonDocument;
