import { z } from 'zod';
import type { MessageKey } from '../i18n/keys';
import { entities } from './entities';

/** The contact form's messages (message keys). */
export const contactMessages = {
  nameRequired: 'contact.nameRequired',
  emailRequired: 'contact.emailRequired',
  emailInvalid: 'auth.emailInvalid',
  subjectRequired: 'contact.subjectRequired',
  messageRequired: 'contact.messageRequired',
  thanksTitle: 'contact.thanksTitle',
  thanksBody: 'contact.thanksBody',
} as const satisfies Record<string, MessageKey>;

/** POST /contact-us/send-email */
export const ContactMessage = z.object({
  name: z
    .string({ error: contactMessages.nameRequired })
    .trim()
    .min(1, contactMessages.nameRequired)
    .max(100),
  email: z
    .string({ error: contactMessages.emailRequired })
    .trim()
    .min(1, contactMessages.emailRequired)
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, contactMessages.emailInvalid),
  subject: z
    .string({ error: contactMessages.subjectRequired })
    .trim()
    .min(1, contactMessages.subjectRequired)
    .max(200),
  message: z
    .string({ error: contactMessages.messageRequired })
    .trim()
    .min(1, contactMessages.messageRequired)
    .max(5000),
});
entities.add(ContactMessage, { id: 'ContactMessage' });
