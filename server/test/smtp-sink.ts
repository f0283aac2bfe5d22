/**
 * A real SMTP server on loopback (smtp-server) for the tests that deliver mail: it records every message
 * it accepts and every attempt it refuses, and can refuse the first attempts of each message (a 451,
 * "try again later", as a busy mail server answers) to make deliveries fail and be retried.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkAttempt {
  messageId: string;
  subject: string;
  /** The envelope's sender and recipients. */
  from: string;
  to: string[];
  at: number;
  accepted: boolean;
  raw: string;
}

export interface SmtpSink {
  url: string;
  port: number;
  attempts: SinkAttempt[];
  /** Accepted messages. */
  accepted(): SinkAttempt[];
  /** Refuse the first `n` attempts of every message from now on (0: accept everything). */
  refuseFirst(n: number): void;
  /** Refuse every attempt while true, as a server that is down for maintenance. */
  refuseAll(on: boolean): void;
  close(): Promise<void>;
}

const header = (raw: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*)$`, 'mi').exec(raw.split(/\r?\n\r?\n/)[0] ?? '')?.[1]?.trim() ?? '';

export async function startSmtpSink(): Promise<SmtpSink> {
  const attempts: SinkAttempt[] = [];
  let refuseFirst = 0;
  let refuseAll = false;
  const server = new SMTPServer({
    // its built-in certificate has expired: plain SMTP on loopback
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        raw += chunk;
      });
      stream.on('end', () => {
        const messageId = header(raw, 'Message-ID');
        const before = attempts.filter((a) => a.messageId === messageId).length;
        const accepted = !refuseAll && before >= refuseFirst;
        attempts.push({
          messageId,
          subject: header(raw, 'Subject'),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          at: Date.now(),
          accepted,
          raw,
        });
        if (accepted) return callback();
        const err = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
        callback(err);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    attempts,
    accepted: () => attempts.filter((a) => a.accepted),
    refuseFirst(n) {
      refuseFirst = n;
    },
    refuseAll(on) {
      refuseAll = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
