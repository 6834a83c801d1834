import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

/** Where mail leaves the building. */
export interface MailTransport {
  readonly name: 'smtp' | 'sandbox';
  send(mail: OutgoingMail): Promise<void>;
}

/** Real delivery over SMTP (SMTP_URL, e.g. smtps://user:pass@mail.example.com). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(mail) {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined });
    },
  };
}

/**
 * Development delivery: the message stays in the outbox table, where /dev/outbox and
 * /dev/outbox.json show it as the recipient would read it. Nothing leaves the machine.
 */
export const sandboxTransport: MailTransport = {
  name: 'sandbox',
  async send() {},
};
