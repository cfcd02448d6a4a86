import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { privateFileMode, privateFolder } from './private-files';

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
  /** Settles soon after `signal` aborts, closing any connection still open for this mail. */
  deliver(mail: OutgoingMail, signal?: AbortSignal): Promise<void>;
  close?(): void;
}

/** The mail server refused this message or its recipients for good (a 5xx answer): retrying cannot help. */
export class PermanentMailError extends Error {}

/**
 * The mail server had the whole message but its answer never came (too slow, or the connection
 * dropped): it may have kept the mail, so sending it again at once could deliver it twice.
 */
export class UncertainMailError extends Error {}

/** `<outbox-12.1790000000000@mangoshop.co.nz>`: stable across retries, unique across databases. */
export function messageIdOf(mail: OutgoingMail, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<outbox-${mail.id}.${mail.createdAt.getTime()}@${domain}>`;
}

function nodemailerMessage(mail: OutgoingMail, from: string) {
  return { from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers, messageId: messageIdOf(mail, from), date: mail.createdAt };
}

/** How long the commands before the message data may take: the greeting, the login and the envelope. */
const handOverLimitMs = 15_000;

/**
 * Mail goes through SMTP when SMTP_URL is set; otherwise each message is written to a folder as an
 * .eml file named after its outbox row, so delivering it again rewrites the same file.
 */
export function createMailTransport(options: { smtpUrl?: string; from: string; folder: string }): MailTransport {
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    return {
      async deliver(mail, signal) {
        // A server that hangs before taking the message is cut off within seconds. The answer to the
        // end of the data may take long (content scanning; RFC 5321 4.5.3.2.6 allows it 10 minutes):
        // the outbox's limit for a whole delivery, and its stop, end that wait by aborting the send,
        // which closes the connection (one per send, as nodemailer opens without `pool`).
        const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10 * 60_000 });
        const beforeData = new AbortController();
        const timer = setTimeout(() => beforeData.abort(new Error(`the mail server did not take the message within ${handOverLimitMs / 1000} s`)), handOverLimitMs);
        // The message stream is read only after the server's go-ahead to DATA, so its end tells that
        // the server has it all: before, the server cannot have kept the mail; after, only its answer tells.
        let handedOver = false;
        transport.use('stream', (outgoing, done) => {
          outgoing.message.processFunc((data) => {
            data.once('end', () => {
              handedOver = true;
              clearTimeout(timer);
            });
            return data;
          });
          done();
        });
        const stop = signal ? AbortSignal.any([signal, beforeData.signal]) : beforeData.signal;
        try {
          await transport.sendMail({ ...nodemailerMessage(mail, options.from), signal: stop });
        } catch (error) {
          throw smtpFailure(error, handedOver, stop);
        } finally {
          clearTimeout(timer);
        }
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(mail, signal) {
      const info = await transport.sendMail(nodemailerMessage(mail, options.from));
      await privateFolder(options.folder);
      const stamp = mail.createdAt.toISOString().replace(/[:.]/g, '-');
      const file = path.join(options.folder, `${stamp}-${String(mail.id).padStart(8, '0')}.eml`);
      const temporary = `${file}.${process.pid}.part`;
      await fs.writeFile(temporary, info.message as Buffer, { signal, mode: privateFileMode });
      await fs.rename(temporary, file);
    },
  };
}

/** What the outbox should make of a failed send: a final refusal, an unknown outcome, or a failure to retry. */
function smtpFailure(error: unknown, handedOver: boolean, signal: AbortSignal): Error {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  // Only a refusal of this message or its recipients is final; a 5xx to the login or the
  // greeting (rotated credentials, an overloaded server) passes, so it is retried.
  const refusedMessage = (code === 'EENVELOPE' || code === 'EMESSAGE') && responseCode !== undefined && responseCode >= 500 && responseCode < 600;
  if (refusedMessage) return new PermanentMailError(`the mail server refused the message (${responseCode}): ${(error as Error).message}`);
  const reason = signal.aborted && signal.reason instanceof Error ? signal.reason.message : error instanceof Error ? error.message : String(error);
  if (handedOver && responseCode === undefined) {
    return new UncertainMailError(`${reason}, after it had the whole message: the mail may have been delivered`, { cause: error });
  }
  return error instanceof Error && !signal.aborted ? error : new Error(reason, { cause: error });
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
