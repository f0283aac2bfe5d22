import { z } from 'zod';
import { Id } from './common';
import { entities } from './entities';

export const Topic = z.object({ _id: Id, name: z.string() });
entities.add(Topic, { id: 'Topic' });
export const Subject = z.object({ _id: Id, name: z.string(), topics: z.array(Topic) });
entities.add(Subject, { id: 'Subject' });
export type Subject = z.infer<typeof Subject>;
export const Language = z.object({ _id: Id, name: z.string() });
entities.add(Language, { id: 'Language' });
export type Language = z.infer<typeof Language>;
export const Country = z.object({ code: z.string().length(2), country: z.string() });
entities.add(Country, { id: 'Country' });
export type Country = z.infer<typeof Country>;
