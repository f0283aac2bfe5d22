import { z } from 'zod';
import { envelope, errors } from '../schemas/common';
import { Country, Language, Subject } from '../schemas/lists';
import { defineCall, defineRouter } from './define';

export const subjectList = defineCall({
  method: 'GET',
  path: '/subject/list',
  summary: 'Subjects with their topics.',
  tags: ['lists'],
  access: 'public',
  responses: { 200: envelope(z.array(Subject)), ...errors },
});
export const languageList = defineCall({
  method: 'GET',
  path: '/languages/list',
  summary: 'Languages roadmaps are taught in.',
  tags: ['lists'],
  access: 'public',
  responses: { 200: envelope(z.array(Language)), ...errors },
});
export const countryList = defineCall({
  method: 'GET',
  path: '/countries/list',
  summary: 'Every country with its ISO code.',
  tags: ['lists'],
  access: 'public',
  responses: { 200: envelope(z.array(Country)), ...errors },
});

/** Every call of this module, served by server/lists/routes.ts. */
export const listsRouter = defineRouter({
  subjectList,
  languageList,
  countryList,
});
