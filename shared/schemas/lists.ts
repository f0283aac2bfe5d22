import { z } from 'zod';
import { Id } from './common';

export const Topic = z.object({ _id: Id, name: z.string() });
export const Subject = z.object({ _id: Id, name: z.string(), topics: z.array(Topic) });
export type Subject = z.infer<typeof Subject>;
export const Language = z.object({ _id: Id, name: z.string() });
export type Language = z.infer<typeof Language>;
export const Country = z.object({ code: z.string().length(2), country: z.string() });
export type Country = z.infer<typeof Country>;
