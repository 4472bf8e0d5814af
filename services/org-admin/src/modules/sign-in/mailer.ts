import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '@quire/kit';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The link the mail carries: written to the log when no SMTP server is configured. */
  link: string;
}

const transports = new Map<string, Transporter>();
/** A slow or unreachable SMTP server must not hold the request (and its transaction) for minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * Sends a mail over SMTP (`QUIRE_SMTP_URL`, nodemailer); without one, writes the link to the log so that a
 * self-hoster can still get in. A failed delivery is logged, never shown: the page says the same either way.
 */
export async function sendMail(
  config: { QUIRE_SMTP_URL?: string | undefined; QUIRE_MAIL_FROM: string },
  log: Logger,
  mail: Mail,
): Promise<void> {
  if (!config.QUIRE_SMTP_URL) {
    log.warn({ to: mail.to, link: mail.link }, `QUIRE_SMTP_URL is not set: ${mail.subject}: ${mail.link}`);
    return;
  }
  let transport = transports.get(config.QUIRE_SMTP_URL);
  if (!transport)
    transports.set(
      config.QUIRE_SMTP_URL,
      (transport = nodemailer.createTransport({ url: config.QUIRE_SMTP_URL, ...TIMEOUTS })),
    );
  try {
    await transport.sendMail({ from: config.QUIRE_MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
  } catch (err) {
    log.error({ err, to: mail.to }, 'sign-in mail could not be sent');
  }
}
