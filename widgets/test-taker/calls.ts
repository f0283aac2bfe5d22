/**
 * The calls of the test taker, as the client needs them (method, path, who may call), typed by the
 * contract but without its zod schemas, so the embed build keeps zod out of the element file (the same
 * approach as widgets/embed/calls.ts). `calls.test.ts` checks them against the contract.
 */
import type * as Assessments from '@shared/contract/assessments';
import type { Access, CallDef, Method } from '@shared/contract/define';

function light<C extends CallDef>(method: Method, path: string, access: Access): C {
  return { method, path, access, summary: '', tags: [], responses: {} } as unknown as C;
}

export const takerCalls = {
  testLinkQuestions: light<typeof Assessments.testLinkQuestions>(
    'GET',
    '/testlink/assessment/{id}',
    'optional',
  ),
  verifyTestLink: light<typeof Assessments.verifyTestLink>('PUT', '/testlink/verify/{id}', 'optional'),
  saveAnswer: light<typeof Assessments.saveAnswer>('PUT', '/testlink/{id}/answer', 'optional'),
  testActivity: light<typeof Assessments.testActivity>('POST', '/testlink/activity', 'optional'),
  evaluateTest: light<typeof Assessments.evaluateTest>('POST', '/testlink/evaluvate/v2', 'optional'),
};
