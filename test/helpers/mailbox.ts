/**
 * A real SMTP server in the test process (smtp-server), whose received messages are parsed
 * (mailparser) and kept for the test to read: what a customer's mailbox would show.
 */
import type { AddressInfo } from 'node:net';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  /** `smtp://127.0.0.1:PORT`, for SMTP_URL or SmtpMailer. */
  url: string;
  messages: ParsedMail[];
  /** The first message to `to` whose subject matches, waiting for it to arrive. */
  waitFor(to: string, subject: RegExp, timeoutMs?: number): Promise<ParsedMail>;
  /** Every message to `to`, as they are now. */
  to(to: string): ParsedMail[];
  close(): Promise<void>;
}

function recipients(m: ParsedMail): string[] {
  const list = ([] as AddressObject[]).concat(m.to ?? []);
  return list.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push(parsed);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) => messages.filter((m) => recipients(m).includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    async waitFor(address, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = to(address).find((m) => subject.test(m.subject ?? ''));
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `no mail to ${address} matching ${subject} within ${timeoutMs} ms (got: ${
              to(address)
                .map((m) => m.subject)
                .join(' | ') || 'nothing'
            })`,
          );
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The links in a message's text, in order. */
export function linksIn(m: ParsedMail): string[] {
  return (m.text ?? '').match(/https?:\/\/[^\s<>"]+/g) ?? [];
}
