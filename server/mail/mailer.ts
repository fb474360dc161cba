/**
 * Outgoing e-mail. One interface, three ways to deliver:
 * - SMTP (`SMTP_URL`), through nodemailer: production, and the tests (an in-process server);
 * - files in the data folder, demo mode only (no `DATABASE_URL`, no `SMTP_URL`): each
 *   message is written as an .eml file and its links are logged, so a fresh clone can
 *   confirm an address without a mail server;
 * - nowhere, loudly: the operator CLI on a production database without `SMTP_URL` logs every
 *   message it could not send as an error (the server refuses to start instead).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../platform/logger.js';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** What the message is (`verify_email`, `invoice_issued`…), for logs. */
  kind: string;
}

export interface Mailer {
  /** Resolves once the message is handed over (accepted by the SMTP server, written…). */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

const LINK = /https?:\/\/[^\s<>"]+/g;

function toNodemailer(from: string, m: MailMessage) {
  return { from, to: m.to, subject: m.subject, text: m.text, html: m.html, attachments: m.attachments };
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(toNodemailer(this.from, message));
  }

  close(): void {
    this.transport.close();
  }
}

/** Demo mode: messages as .eml files in `<data dir>/mail/`, links in the log. */
export class FileMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail(toNodemailer(this.from, message));
    mkdirSync(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(this.dir, `${stamp}-${message.kind}-${message.to.replace(/[^A-Za-z0-9@._-]/g, '_')}.eml`);
    writeFileSync(file, info.message as Buffer);
    this.logger.info(
      { to: message.to, subject: message.subject, file, links: message.text.match(LINK) ?? [] },
      'demo mail written (no SMTP_URL)',
    );
  }

  close(): void {}
}

/**
 * No way to send: every message fails, saying to whom and why, so the caller's log shows
 * each one as an error (AccountMail logs failed sends).
 */
export class UnsentMailer implements Mailer {
  constructor(private readonly reason: string) {}

  async send(message: MailMessage): Promise<void> {
    throw new Error(`not sent to ${message.to} ("${message.subject}"): ${this.reason}`);
  }

  close(): void {}
}
