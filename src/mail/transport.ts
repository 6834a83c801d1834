import type * as Nodemailer from 'nodemailer';
import { lazyRequire } from '../core/lazy-require.js';

const nodemailer = lazyRequire<typeof Nodemailer>('nodemailer');

/** A file sent with a message; `content` is text (an .ics event is the one kind sent today). */
// A type, not an interface: it is stored as JSON, and only a type alias is a JSON object to Prisma.
export type MailAttachment = {
  filename: string;
  contentType: string;
  content: string;
};

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: MailAttachment[] | null;
}

/** The attachments column as stored (JSON), read back; anything else there is not ours and is dropped. */
export function attachmentsOf(value: unknown): MailAttachment[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (a): a is MailAttachment => !!a && typeof a === 'object' && typeof a.filename === 'string' && typeof a.contentType === 'string' && typeof a.content === 'string',
  );
}

/** Where mail leaves the building. */
export interface MailTransport {
  readonly name: 'smtp' | 'sandbox';
  send(mail: OutgoingMail): Promise<void>;
}

/** Real delivery over SMTP (SMTP_URL, e.g. smtps://user:pass@mail.example.com). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer().createTransport(url);
  return {
    name: 'smtp',
    async send(mail) {
      const files = mail.attachments ?? [];
      // A calendar event also goes as the message's text/calendar alternative, which is how mail
      // clients recognise an invitation (one per message); the file stays attached for the rest.
      const invite = files.find((a) => a.contentType.startsWith('text/calendar'));
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        attachments: files.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
        icalEvent: invite ? { method: /method=(\w+)/i.exec(invite.contentType)?.[1] ?? 'PUBLISH', content: invite.content } : undefined,
      });
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
