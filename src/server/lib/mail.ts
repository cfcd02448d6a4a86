import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, such as List-Unsubscribe. */
  headers?: Record<string, string>;
}

/** A mail taken from the outbox: its row id makes the Message-ID, so a repeat is the same message. */
export interface OutgoingMail extends MailMessage {
  id: number;
  createdAt: Date;
}

/** Hands one mail to its next hop: the mail server, or a folder of .eml files. */
export interface MailTransport {
  deliver(mail: OutgoingMail): Promise<void>;
  close?(): void;
}

/** The mail server refused this message or its recipients for good (a 5xx answer): retrying cannot help. */
export class PermanentMailError extends Error {}

/** `<outbox-12.1790000000000@mangoshop.co.nz>`: stable across retries, unique across databases. */
export function messageIdOf(mail: OutgoingMail, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<outbox-${mail.id}.${mail.createdAt.getTime()}@${domain}>`;
}

function nodemailerMessage(mail: OutgoingMail, from: string) {
  return { from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers, messageId: messageIdOf(mail, from), date: mail.createdAt };
}

/**
 * Mail goes through SMTP when SMTP_URL is set; otherwise each message is written to a folder as an
 * .eml file named after its outbox row, so delivering it again rewrites the same file.
 */
export function createMailTransport(options: { smtpUrl?: string; from: string; folder: string }): MailTransport {
  if (options.smtpUrl) {
    // Bounded waits: a mail server that hangs must not hold up the outbox (or shutdown) for long.
    const transport = nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 });
    return {
      async deliver(mail) {
        try {
          await transport.sendMail(nodemailerMessage(mail, options.from));
        } catch (error) {
          // Only a refusal of this message or its recipients is final; a 5xx to the login or the
          // greeting (rotated credentials, an overloaded server) passes, so it is retried.
          const { code, responseCode } = error as { code?: string; responseCode?: number };
          const refusedMessage = (code === 'EENVELOPE' || code === 'EMESSAGE') && responseCode !== undefined && responseCode >= 500 && responseCode < 600;
          if (refusedMessage) throw new PermanentMailError(`the mail server refused the message (${responseCode}): ${(error as Error).message}`);
          throw error;
        }
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(mail) {
      const info = await transport.sendMail(nodemailerMessage(mail, options.from));
      await fs.mkdir(options.folder, { recursive: true });
      const stamp = mail.createdAt.toISOString().replace(/[:.]/g, '-');
      const file = path.join(options.folder, `${stamp}-${String(mail.id).padStart(8, '0')}.eml`);
      const temporary = `${file}.${process.pid}.part`;
      await fs.writeFile(temporary, info.message as Buffer);
      await fs.rename(temporary, file);
    },
  };
}

/** Keeps delivered messages in memory, once per outbox row; tests read them to follow links. */
export class MemoryMailer implements MailTransport {
  readonly sent: MailMessage[] = [];
  private readonly seen = new Set<string>();

  async deliver(mail: OutgoingMail): Promise<void> {
    const key = `${mail.id}.${mail.createdAt.getTime()}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const { id: _id, createdAt: _createdAt, ...message } = mail;
    this.sent.push(message);
  }
}
