import { z } from 'zod';
import { entities } from './entities';

export const contactMessages = {
  nameRequired: 'Name is required',
  emailRequired: 'Required',
  emailInvalid: 'Invalid email address',
  subjectRequired: 'Subject is required',
  messageRequired: 'Message is required',
  thanksTitle: 'Thanks for contacting Us.',
  thanksBody: 'We will get back to you in 24 hrs.',
} as const;

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
