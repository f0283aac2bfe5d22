/**
 * The calls of the learning-time widgets (dashboard, extension prompts), as the client needs them, typed
 * by the contract but without its zod schemas, so the embed build keeps zod out of the element files
 * (the same approach as widgets/embed/calls.ts). `calls.test.ts` checks them against the contract.
 */
import type * as Activity from '@shared/contract/activity';
import type * as Assessments from '@shared/contract/assessments';
import type { Access, CallDef, Method } from '@shared/contract/define';
import type * as System from '@shared/contract/system';

function light<C extends CallDef>(method: Method, path: string, access: Access): C {
  return { method, path, access, summary: '', tags: [], responses: {} } as unknown as C;
}

export const activityCalls = {
  timeSpentByUserDaywise: light<typeof Activity.timeSpentByUserDaywise>(
    'GET',
    '/reports/dashboard/time-spent-by-user-daywise',
    ['USER'],
  ),
  timeSpentOnResourceByUser: light<typeof Activity.timeSpentOnResourceByUser>(
    'GET',
    '/reports/dashboard/time-spent-on-resource-by-user',
    ['USER'],
  ),
  learningDays: light<typeof Activity.learningDays>('GET', '/reports/dashboard/learning-days', ['USER']),
  timeSpentByTopic: light<typeof Activity.timeSpentByTopic>('GET', '/reports/dashboard/time-spent-by-topic', [
    'USER',
  ]),
  getCurrentResource: light<typeof Activity.getCurrentResource>(
    'GET',
    '/reports/dashboard/get-current-resource',
    ['USER'],
  ),
  createTestLink: light<typeof Assessments.createTestLink>('POST', '/testlink/create', ['USER']),
  config: light<typeof System.config>('GET', '/config', 'public'),
};
