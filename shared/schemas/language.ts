/** The interface's languages as an API value (decision 040). */

import { z } from 'zod';
import { LOCALES } from '../i18n/locales';
import { entities } from './entities';

/** A language of Waymark's interface: English, Spanish or Arabic. */
export const Language = z.enum(LOCALES);
entities.add(Language, { id: 'InterfaceLanguage' });
export type Language = z.infer<typeof Language>;

export const LanguageInput = z.object({ language: Language });
entities.add(LanguageInput, { id: 'InterfaceLanguageInput' });
