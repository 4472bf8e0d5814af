import { secretBoxOf } from '@quire/kit';
import type { OrgAdminConfig } from '../../env.ts';
import type { IOutboxMail } from './outbox-mail.entity.ts';

/** An outbox mail as the API shows it: its text and link opened (instance admin only: the operation's access). */
export const outboxMailPresenter = (config: OrgAdminConfig) => {
  const box = secretBoxOf(config);
  return (m: IOutboxMail) => ({
    object: 'outbox-mail' as const,
    id: m.id,
    kind: m.kind,
    to: m.to,
    subject: m.subject,
    text: box.open(m.text, `outbox:${m.id}:text`),
    link: box.open(m.link, `outbox:${m.id}:link`),
    createdAt: m.createdAt.toISOString(),
    expiresAt: m.expiresAt.toISOString(),
  });
};
