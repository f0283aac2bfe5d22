import { z } from 'zod';
import { envelope, errors } from '../schemas/common';
import { TenantUserEntry } from '../schemas/tenant';
import { defineCall } from './define';

export const tenantUsersList = defineCall({
  method: 'GET',
  path: '/tenant/users/list',
  summary: "The tenant's learner seats, paged and searchable by name or e-mail.",
  tags: ['tenant'],
  access: ['TENANT'],
  query: z.object({
    page: z.coerce.number().int().min(1, 'must be a page number from 1').default(1),
    limit: z.coerce
      .number()
      .int()
      .refine((n) => [5, 10, 15].includes(n), 'must be 5, 10 or 15')
      .default(5),
    searchText: z.string().trim().max(100).optional(),
  }),
  responses: {
    200: envelope(z.object({ tenantUserList: z.array(TenantUserEntry), totalUserCount: z.number().int() })),
    ...errors,
  },
});
