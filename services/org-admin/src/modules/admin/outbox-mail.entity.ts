import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A mail the instance would have sent while no SMTP server is configured (`QUIRE_SMTP_URL` unset): kept for the
 * instance admin to read (`GET /v1/admin/outbox`, the app's `/admin/outbox`) until its link expires. Its text holds
 * the link, a credential: sealed with the kit's SecretBox (aad `outbox:<id>`).
 */
export const OutboxMail = defineEntity({
  name: 'OutboxMail',
  tableName: 'outbox_mail',
  properties: {
    id: p.string().primary(),
    kind: p.string().$type<'sign-in' | 'invite'>(),
    to: p.string(),
    subject: p.string(),
    /** The text, sealed. */
    text: p.text(),
    /** The link, sealed. */
    link: p.text(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type IOutboxMail = InferEntity<typeof OutboxMail>;
