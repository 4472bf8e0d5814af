import { newId, secretBoxOf, type EntityManager, type Logger } from '@quire/kit';
import type { OrgAdminConfig } from '../env.ts';
import { OutboxMail } from '../modules/admin/outbox-mail.entity.ts';
import { type Mail, sendMail } from '../modules/sign-in/mailer.ts';

export interface OutgoingMail extends Mail {
  kind: 'sign-in' | 'invite';
  /** When the link stops working: the outbox keeps the mail until then. */
  expiresAt: Date;
}

/**
 * Sends a mail over SMTP; without an SMTP server (`QUIRE_SMTP_URL` unset), logs its link as before and keeps it in
 * the outbox, sealed, for the instance admin to read in the app until its link expires (what has expired is
 * deleted on the way). Without a secrets key nothing can be sealed: the log line stays the only copy.
 */
export async function mailSender(
  em: EntityManager,
  env: { config: OrgAdminConfig; log: Logger },
  mail: OutgoingMail,
): Promise<void> {
  await sendMail(env.config, env.log, mail);
  if (env.config.QUIRE_SMTP_URL) return;
  const box = secretBoxOf(env.config);
  if (!box.canSeal) return;
  const now = new Date();
  await em.nativeDelete(OutboxMail, { expiresAt: { $lt: now } });
  const id = newId();
  em.create(OutboxMail, {
    id,
    kind: mail.kind,
    to: mail.to,
    subject: mail.subject,
    text: box.seal(mail.text, `outbox:${id}:text`),
    link: box.seal(mail.link, `outbox:${id}:link`),
    createdAt: now,
    expiresAt: mail.expiresAt,
  });
}
