/** The contact form: a message to the support address, replying to the sender. */
import type { contactUs } from '@shared/contract/catalogue';
import type { CallBody } from '@shared/contract/define';
import type { MailService } from '../adapters/mail';
import { HttpError } from '../http/errors';

/** One line for a mail header: no line breaks, bounded. */
const headerLine = (s: string, max = 150) => s.replace(/[\r\n]+/g, ' ').slice(0, max);

/** Sends a contact form's message to `supportEmail` (503 when it cannot be queued; `onError` hears why). */
export async function sendContactMessage(
  mail: MailService,
  supportEmail: string,
  body: CallBody<typeof contactUs>,
  onError: (err: unknown) => void,
) {
  const text = [
    `From: ${body.name} <${body.email}>`,
    `Subject: ${headerLine(body.subject, 200)}`,
    '',
    body.message,
    '',
    '— sent through the contact form of Waymark',
  ].join('\n');
  try {
    await mail.send({
      to: supportEmail,
      subject: headerLine(`Contact: ${body.subject}`),
      text,
      replyTo: body.email,
      kind: 'contact',
    });
  } catch (err) {
    onError(err);
    throw new HttpError(
      503,
      `Your message could not be sent right now. Please try again in a few minutes, or write to ${supportEmail}.`,
    );
  }
}
