import { sqlRun, type EntityManager } from '@quire/kit';

/** The `content_space` projection: each write applies only when it is not older than what the row reflects. */
export const contentSpaceRepository = {
  async insert(
    em: EntityManager,
    row: { id: string; organizationId: string; title: string; at: string },
  ): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.content_space (id, organization_id, title, created_at, deleted_at, event_at) values (?, ?, ?, ?, null, ?)
       on conflict (id) do nothing`,
      [row.id, row.organizationId, row.title, row.at, row.at],
    );
  },

  /** Updates the row unless it already reflects a later event. */
  async applyAt(
    em: EntityManager,
    id: string,
    at: string,
    set: { title?: string; organization_id?: string; deleted_at?: string | null },
  ): Promise<void> {
    const columns = Object.keys(set);
    await sqlRun(
      em,
      `update :schema.content_space set ${columns.map((c) => `${c} = ?`).join(', ')}, event_at = ? where id = ? and (event_at is null or event_at <= ?)`,
      [...Object.values(set), at, id, at],
    );
  },

  async remove(em: EntityManager, id: string): Promise<void> {
    await sqlRun(em, `delete from :schema.content_space where id = ?`, [id]);
  },
};
