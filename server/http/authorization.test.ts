/**
 * Who may see and change what, for every call of the contract. Each call is sent — its documented example
 * request with the ids of real records put in — by each kind of caller: signed out, the learner who owns
 * the records, another learner, the mentor (tenant) who owns the authored records and holds the learner's
 * seat, and another tenant. What each call is about is declared below (`ABOUT`, one entry per call: a new
 * call without one fails here), and from it and the call's declared access follows what each caller gets:
 *   - a caller the call does not admit gets 401 (signed out) or 403 (wrong role);
 *   - a call about the learner's or the mentor's records answers anyone else with a 4xx, and changes nothing;
 *   - nobody but those declared sees the owners' private data: the learner's and the mentor's names and
 *     e-mail addresses, the mentor's question and assessment, the mentor's invitee — the answer's text is
 *     searched for them, whatever its status;
 *   - nothing answers 5xx.
 * Calls that delete or end something are sent by the other callers only, after everything else, and then the
 * owners' records are checked to be still there. (The calls' own tests check what the owners get.)
 */
import type { CallDef } from '@shared/contract/define';
import { fillPath } from '@shared/contract/define';
import { allCalls } from '@shared/contract/registry';
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, setupServer } from '../test/helper';
import { readExample } from './openapi-docs';
import { API_PREFIX } from './routes';

// no cool-down after a failed test: the learner's second test of the roadmap starts at once
const server = setupServer({
  seed: true,
  env: { RATE_LIMIT_AUTH: '100000', RATE_LIMIT_STRICT: '100000', RETAKE_COOLDOWN_HOURS: '0' },
});

type Kind = 'signedOut' | 'learner' | 'otherLearner' | 'tenant' | 'otherTenant';
const KINDS: Kind[] = ['signedOut', 'learner', 'otherLearner', 'tenant', 'otherTenant'];

/**
 * What a call is about, which decides who may have it:
 * - `learner`: the owner learner's records, named by id (a test link, an assigned roadmap, the account):
 *   only the learner, and — on the tenant's calls — the mentor holding the learner's seat;
 * - `tenant`: the mentor's own records (questions, assessments, seats, invitations, subscription): only the mentor;
 * - `bank`: a published question, which every author may read and reuse (the shared question bank, spec 001:
 *   "Authors curate a question bank"), with its text and its creator's name — never the creator's e-mail;
 * - `own`: the caller's own records, no one else's id in the request: each caller gets only its own;
 * - `link`: a test link, whose id is the key to it (a test taker may be signed out): whoever holds the id
 *   may open the test and start it, but sees none of the owners' private data;
 * - `attempt`: a write of a started test (an answer, the focus record, the evaluation), which only the
 *   browser holding the attempt's token may make (decision 031): no caller here holds it, so every one is
 *   refused, the learner too;
 * - `public`: public records, the same for everyone (lists, the catalogue, a credential's documents).
 * `shows` names the owners' data the call shows to everyone (a public award names its learner).
 */
type Secret = 'learner' | 'learnerEmail' | 'mentor' | 'mentorEmail' | 'question' | 'assessment' | 'invitee';
type About = {
  about: 'learner' | 'tenant' | 'bank' | 'own' | 'link' | 'attempt' | 'public';
  shows?: Secret[];
};
const L: About = { about: 'learner' };
const T: About = { about: 'tenant' };
const OWN: About = { about: 'own' };
const LINK: About = { about: 'link' };
const ATTEMPT: About = { about: 'attempt' };
const PUBLIC: About = { about: 'public' };
const BANK: About = { about: 'bank', shows: ['question', 'mentor'] };
/** A public award names its learner (the award page, the credential). */
const AWARD: About = { about: 'public', shows: ['learner'] };

const ABOUT: Record<string, About> = {
  'activity.createFeedback': OWN,
  'activity.deleteTrackedDay': OWN,
  'activity.deleteTrackedSpan': L,
  'activity.exportActivity': OWN,
  'activity.getCurrentResource': OWN,
  'activity.learningDays': OWN,
  'activity.sendHeartbeats': OWN,
  'activity.timeSpentByTopic': OWN,
  'activity.timeSpentByUserDaywise': OWN,
  'activity.timeSpentOnResourceByUser': OWN,
  'activity.todaySummary': OWN,
  'activity.trackedDays': OWN,
  'activity.trackedResources': OWN,
  'analysis.assessmentStats': T,
  'analysis.assessmentStatsExport': T,
  'analysis.assessmentValidity': T,
  'analysis.platformQuestionStats': OWN,
  'analysis.platformTestStats': OWN,
  'analysis.questionBankStats': OWN,
  'analysis.questionBankStatsExport': OWN,
  'analysis.questionStats': BANK,
  'analysis.renewAward': L,
  'analysis.setAssessmentValidity': T,
  'assessments.certificateInfo': AWARD,
  'assessments.createCertificate': L,
  'assessments.createPresignedUrl': L,
  'assessments.createTestLink': L,
  'assessments.evaluateTest': ATTEMPT,
  'assessments.generateResourceTestLink': OWN,
  'assessments.questionFeedback': L,
  'assessments.saveAnswer': ATTEMPT,
  'assessments.testActivity': ATTEMPT,
  'assessments.testLinkList': OWN,
  'assessments.testLinkQuestions': LINK,
  'assessments.uploadFile': PUBLIC,
  'assessments.verifyTestLink': LINK,
  'assessments.viewTestLink': L,
  'auth.checkEmailExist': PUBLIC,
  'auth.cliApprove': OWN,
  'auth.cliPoll': PUBLIC,
  'auth.cliStart': PUBLIC,
  'auth.logout': OWN,
  'auth.refresh': OWN,
  'auth.signInWithFirebase': PUBLIC,
  'auth.socketToken': OWN,
  'authoring.addAssessmentQuestion': T,
  'authoring.adminSubjectList': PUBLIC,
  'authoring.assessmentList': OWN,
  'authoring.assessmentQuestionPools': T,
  'authoring.assignAssessmentUsers': T,
  'authoring.changeQuestionType': T,
  'authoring.createAssessment': OWN,
  'authoring.createQuestion': T,
  'authoring.deleteCode': T,
  'authoring.deleteImage': T,
  'authoring.deleteQuestion': T,
  'authoring.getAssessment': T,
  'authoring.getQuestion': BANK,
  'authoring.imageSignedUrl': T,
  'authoring.importCheck': OWN,
  'authoring.importQuestions': T,
  'authoring.importSignedUrl': OWN,
  'authoring.questionFeedbackList': T,
  'authoring.removeAssessmentQuestion': T,
  'authoring.removeOption': T,
  'authoring.saveQuestion': T,
  'authoring.tenantQuestion': BANK,
  'authoring.tenantQuestionRemove': T,
  'authoring.tenantQuestionSearch': OWN,
  'authoring.updateImagePath': T,
  'catalogue.assignRoadmap': OWN,
  'catalogue.assignUserToRoadmap': OWN,
  'catalogue.assignedRoadmap': L,
  'catalogue.assignedRoadmapNoAuth': PUBLIC,
  'catalogue.checkRoadmapAssigned': OWN,
  'catalogue.contactUs': PUBLIC,
  'catalogue.createRoadmap': OWN,
  'catalogue.evaluateAndCreateRoadmap': OWN,
  'catalogue.generateInitialAssessment': OWN,
  'catalogue.initialAssessment': LINK,
  'catalogue.myRoadmaps': OWN,
  'catalogue.prerequisiteSelectedRoadmap': PUBLIC,
  'catalogue.resourceByShortId': PUBLIC,
  'catalogue.roadmapList': PUBLIC,
  'catalogue.roadmapListNoAuth': PUBLIC,
  'catalogue.roadmapNoAuth': PUBLIC,
  'catalogue.roadmapView': PUBLIC,
  'catalogue.submitTask': L,
  'credentials.credentialStatus': AWARD,
  'credentials.credentialStatusList': PUBLIC,
  'credentials.getCredential': AWARD,
  'credentials.revokeCredential': L,
  'credentials.verifyCredential': PUBLIC,
  'integrations.apiKeyList': OWN,
  'integrations.auditLog': OWN,
  'integrations.createApiKey': OWN,
  'integrations.exportAuditLog': OWN,
  'integrations.revokeApiKey': T,
  'integrations.scimSettings': OWN,
  'integrations.createScimToken': OWN,
  'integrations.revokeScimToken': T,
  'integrations.ssoSettings': OWN,
  'integrations.saveSso': OWN,
  'integrations.saveSamlSso': OWN,
  'integrations.removeSso': OWN,
  'integrations.addSsoDomain': OWN,
  'integrations.mailSsoDomainCode': T,
  'integrations.verifySsoDomain': T,
  'integrations.removeSsoDomain': T,
  'integrations.ssoStart': PUBLIC,
  'integrations.ssoFinish': PUBLIC,
  // webhooks and the learning record store: the caller's own, or the mentor's endpoint by id
  'integrations.webhookList': OWN,
  'integrations.createWebhook': OWN,
  'integrations.updateWebhook': T,
  'integrations.removeWebhook': T,
  'integrations.rotateWebhookSecret': T,
  'integrations.testWebhook': T,
  'integrations.webhookDeliveries': T,
  'integrations.redeliverWebhook': T,
  'integrations.redeliverFailedWebhooks': T,
  'integrations.xapiConnection': OWN,
  'integrations.connectXapi': OWN,
  'integrations.disconnectXapi': OWN,
  'integrations.testXapi': OWN,
  'integrations.xapiStatementQueue': OWN,
  'integrations.resendXapiStatements': OWN,
  // LTI: the mentor's platforms by id; the launch's own calls carry the launch's token, no account
  'lti.ltiToolConfig': OWN,
  'lti.ltiRegistrationList': OWN,
  'lti.createLtiRegistration': OWN,
  'lti.createLtiRegistrationInvite': OWN,
  'lti.updateLtiRegistration': T,
  'lti.removeLtiRegistration': T,
  'lti.ltiContextList': T,
  'lti.syncLtiMembers': T,
  'lti.ltiDeliveryList': OWN,
  'lti.retryLtiDelivery': T,
  'lti.ltiDeepLinkingOptions': PUBLIC,
  'lti.ltiDeepLinkingRespond': PUBLIC,
  'lti.ltiStartSession': PUBLIC,
  'lti.ltiCourseView': PUBLIC,
  'lists.countryList': PUBLIC,
  'lists.languageList': PUBLIC,
  'lists.subjectList': PUBLIC,
  'profile.basicProfile': OWN,
  'profile.deleteAccount': L,
  'profile.me': OWN,
  'profile.setLanguage': OWN,
  // a tenant's own sandbox (decision 041): each caller gets only its own
  'sandbox.createSandbox': OWN,
  'sandbox.getSandbox': OWN,
  'sandbox.resetSandbox': OWN,
  'system.config': PUBLIC,
  'system.health': PUBLIC,
  'system.mailbox': PUBLIC,
  'tenant.cohortList': OWN,
  'tenant.cohortShow': T,
  'tenant.createCohort': OWN,
  'tenant.renameCohort': T,
  'tenant.deleteCohort': T,
  'tenant.addCohortMembers': T,
  'tenant.removeCohortMembers': T,
  'tenant.assignCohortRoadmap': T,
  'tenant.invitationCheck': OWN,
  'tenant.stripeWebhook': PUBLIC,
  'tenant.tenantAddUser': OWN,
  'tenant.tenantAddUserV2': OWN,
  'tenant.tenantApplyOfferCode': OWN,
  'tenant.tenantAssignRoadmap': L,
  'tenant.tenantAssignedRoadmap': L,
  'tenant.tenantAssignedRoadmaps': L,
  'tenant.tenantAwardsByType': OWN,
  'tenant.tenantBeforeCheckAddUser': OWN,
  'tenant.tenantBeforeCheckAddUsers': OWN,
  'tenant.tenantCancelInvitation': T,
  'tenant.tenantCheckRoadmapAssigned': L,
  'tenant.tenantCheckoutSession': T,
  'tenant.tenantCreateSubscription': OWN,
  'tenant.tenantDashboardStats': OWN,
  'tenant.tenantExportAwards': OWN,
  'tenant.tenantExportLearningReport': OWN,
  'tenant.tenantExportResourceReport': L,
  'tenant.tenantExportTestlinks': L,
  'tenant.tenantExportUsers': OWN,
  'tenant.tenantGetResource': L,
  'tenant.tenantInvitations': OWN,
  'tenant.tenantInviteUser': OWN,
  'tenant.tenantLearningDays': L,
  'tenant.tenantLearningReport': OWN,
  'tenant.tenantRemoveUser': L,
  'tenant.tenantRoadmap': PUBLIC,
  'tenant.tenantRoadmapList': OWN,
  'tenant.tenantSubscriptionInfo': OWN,
  'tenant.tenantTestlinkList': L,
  'tenant.tenantTestlinkView': L,
  'tenant.tenantTimeSpentByTopic': L,
  'tenant.tenantTimeSpentDaywise': L,
  'tenant.tenantTimeSpentOnResource': L,
  'tenant.tenantUserAchievements': L,
  'tenant.tenantUserInfo': L,
  'tenant.tenantUsersList': OWN,
  'tenant.tenantUsersSearchList': OWN,
};

/** Calls that delete or end what they are given: only the other callers send them, after the rest. */
const DESTRUCTIVE = new Set([
  'auth.logout',
  'profile.deleteAccount',
  'authoring.deleteQuestion',
  'authoring.tenantQuestionRemove',
  'authoring.removeAssessmentQuestion',
  'authoring.removeOption',
  'authoring.deleteCode',
  'authoring.deleteImage',
  'tenant.tenantRemoveUser',
  'tenant.tenantCancelInvitation',
  'credentials.revokeCredential',
  'integrations.revokeApiKey',
  'integrations.revokeScimToken',
  'integrations.removeSso',
  'integrations.removeSsoDomain',
  'tenant.deleteCohort',
  'tenant.removeCohortMembers',
  'integrations.removeWebhook',
  'integrations.disconnectXapi',
  'lti.removeLtiRegistration',
]);

/** Reads of a record the owners here do not have (a checkout session of the payment provider). */
const NO_RECORD = new Set(['tenant.tenantCheckoutSession']);

const tenantRole = (call: CallDef) => Array.isArray(call.access) && call.access.includes('TENANT');
const admits = (call: CallDef, kind: Kind) => {
  if (call.access === 'public' || call.access === 'optional') return true;
  if (kind === 'signedOut') return false;
  if (call.access === 'signedIn') return true;
  const role = kind === 'tenant' || kind === 'otherTenant' ? 'TENANT' : 'USER';
  return (call.access as readonly string[]).includes(role);
};
/** Who may have a call about the owners' records. */
const owners = (name: string, call: CallDef): Kind[] => {
  const { about } = ABOUT[name]!;
  if (about === 'learner') return tenantRole(call) ? ['tenant'] : ['learner'];
  if (about === 'tenant') return ['tenant'];
  if (about === 'bank') return ['tenant', 'otherTenant'];
  if (about === 'attempt') return [];
  return KINDS;
};

type Ids = Record<string, string>;

/** The paths of an attempt's writes: an answer, the focus record, the evaluation. */
const ATTEMPT_WRITE = /^\/testlink\/(\{id\}\/answer|activity|evaluvate\/v2)$/;

/** The id a path or body field names, for the owners' records; the example's own value otherwise. */
function idFor(name: string, path: string, ids: Ids): string | undefined {
  // the writes of a test in progress are about the one still running
  if ((name === 'id' || name === 'linkId') && ATTEMPT_WRITE.test(path)) return ids.attemptLinkId;
  if (name !== 'id') return ids[name];
  if (/question/.test(path)) return ids.questionId;
  if (/tenant\/assessment/.test(path)) return ids.assessmentId;
  if (/testlink|certificate|credentials/.test(path)) return ids.linkId;
  if (/assigned-roadmap/.test(path)) return ids.assignedRoadmapId;
  if (/roadmap/.test(path)) return ids.roadmapId;
  if (/user-info/.test(path)) return ids.userId;
  if (/invitations/.test(path)) return ids.invitationId;
  if (/api-keys/.test(path)) return ids.apiKeyId;
  if (/scim\/tokens/.test(path)) return ids.scimTokenId;
  if (/sso\/domains/.test(path)) return ids.ssoDomainId;
  if (/cohorts/.test(path)) return ids.cohortId;
  if (/webhooks/.test(path)) return ids.webhookId;
  if (/lti\/registrations/.test(path)) return ids.ltiRegistrationId;
  return undefined;
}

/** The example value with the owners' ids in every field named for one (at any depth). */
function withIds(value: unknown, path: string, ids: Ids, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => withIds(v, path, ids, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(v, path, ids, k)]));
  if (typeof value === 'string' && key && key !== 'id') return idFor(key, path, ids) ?? value;
  return value;
}

describe('every call, as every kind of caller', () => {
  const people = {} as Record<Exclude<Kind, 'signedOut'>, SignedIn>;
  const extension = {} as Record<'learner' | 'otherLearner', SignedIn>;
  let ids: Ids = {};
  /** The owners' private data, which nobody else may see. */
  let secrets: Record<Secret, string>;

  beforeAll(async () => {
    const unique = Date.now().toString(36);
    const names = {
      learner: `Olwen Ownerlearner ${unique}`,
      otherLearner: `Piet Otherlearner ${unique}`,
      tenant: `Tamsin Ownermentor ${unique}`,
      otherTenant: `Ugo Othermentor ${unique}`,
    };
    people.learner = await server.signedIn('USER', { profile: true, name: names.learner });
    people.otherLearner = await server.signedIn('USER', { profile: true, name: names.otherLearner });
    people.tenant = await server.signedIn('TENANT', { profile: true, name: names.tenant });
    people.otherTenant = await server.signedIn('TENANT', { profile: true, name: names.otherTenant });
    for (const k of ['learner', 'otherLearner'] as const) {
      const res = await server.signIn(people[k].account, { role: 'USER', device: 'CHROME_EXTENSION' });
      expect(res.status).toBe(200);
      extension[k] = { ...people[k], token: res.body.data.token, auth: { token: res.body.data.token } };
    }
    const { learner, tenant } = people;
    // the learner holds one of the mentor's seats, has a roadmap, a test taken on it (evaluated) and
    // another in progress, each started in the learner's browser (its attempt token, decision 031)
    expect(
      (await server.post('/api/tenant/users/add-user-v2', { email: learner.account.email }, tenant.auth))
        .status,
    ).toBe(200);
    const roadmaps = await server.get('/api/roadmap/list/no-auth');
    const roadmapId = roadmaps.body.data[0]._id as string;
    const assigned = await server.post('/api/roadmap/assign-roadmap', { roadmapId }, learner.auth);
    expect(assigned.status).toBe(201);
    const assignedRoadmapId = assigned.body.data.assignedRoadmapId as string;
    const startTest = async () => {
      const link = await server.post(
        '/api/testlink/create',
        { type: 'ROADMAP', assignedRoadmapId },
        learner.auth,
      );
      expect(link.status).toBe(200);
      const id = link.body.data.testLinkId as string;
      const attempt = { ...learner.auth, headers: attemptHeaders(newAttemptToken()) };
      expect((await server.put(`/api/testlink/verify/${id}`, undefined, attempt)).status).toBe(200);
      return { id, attempt };
    };
    const taken = await startTest();
    const linkId = taken.id;
    const evaluated = await server.post('/api/testlink/evaluvate/v2', { linkId, answers: [] }, taken.attempt);
    expect(evaluated.status).toBe(200);
    const { id: attemptLinkId } = await startTest();
    // the mentor has an assessment, a question in it, and an open invitation
    const assessmentName = `Secret assessment ${unique}`;
    const assessment = await server.post(
      '/api/tenant/assessment/create',
      { name: assessmentName },
      tenant.auth,
    );
    expect(assessment.status).toBe(200);
    const assessmentId = assessment.body.data._id as string;
    const question = await server.post(
      '/api/admin/question/create',
      { questionType: 'MCQ', assessmentId },
      tenant.auth,
    );
    expect(question.status).toBe(200);
    const questionId = question.body.data.questionId as string;
    const subjects = await server.get('/api/admin/subject/subject-list', tenant.auth);
    const subject = subjects.body.data[0];
    const questionText = `Secret question text ${unique}?`;
    const saved = await server.put(
      `/api/admin/question/${questionId}`,
      {
        question: questionText,
        questionType: 'MCQ',
        points: 10,
        subject: subject._id,
        topic: subject.topics[0]._id,
        options: [
          { value: 'Secret answer', isCorrect: true, points: 10 },
          { value: 'Wrong', isCorrect: false, points: 0 },
        ],
        explanation: [{ type: 'TEXT', value: 'Because.' }],
        tags: ['secret'],
      },
      tenant.auth,
    );
    expect(saved.status, saved.text).toBe(200);
    const invitee = `secret-invitee-${unique}@example.com`;
    const invited = await server.post('/api/tenant/users/invite-user', { email: invitee }, tenant.auth);
    expect(invited.status, invited.text).toBe(200);
    // the mentor's API key
    const key = await server.post(
      '/api/tenant/api-keys',
      { name: `Secret key ${unique}`, scopes: ['seats:read'] },
      tenant.auth,
    );
    expect(key.status, key.text).toBe(201);
    // the mentor's SCIM token
    const scimToken = await server.post(
      '/api/tenant/scim/tokens',
      { name: `Secret directory ${unique}` },
      tenant.auth,
    );
    expect(scimToken.status, scimToken.text).toBe(201);
    // a domain the mentor claimed for single sign-on
    const ssoDomain = await server.post(
      '/api/tenant/sso/domains',
      { domain: `secret-${unique}.example` },
      tenant.auth,
    );
    expect(ssoDomain.status, ssoDomain.text).toBe(201);
    // the mentor's webhook endpoint and LMS platform (names that need not resolve: https only)
    const webhook = await server.post(
      '/api/tenant/webhooks',
      { url: `https://hooks-${unique}.example/waymark`, events: ['seat.added'] },
      tenant.auth,
    );
    expect(webhook.status, webhook.text).toBe(201);
    const platform = await server.post(
      '/api/tenant/lti/registrations',
      {
        label: `Secret Moodle ${unique}`,
        issuer: `https://moodle-${unique}.example`,
        clientId: `client-${unique}`,
        deploymentIds: ['1'],
        authLoginUrl: `https://moodle-${unique}.example/mod/lti/auth.php`,
        tokenUrl: `https://moodle-${unique}.example/mod/lti/token.php`,
        jwksUrl: `https://moodle-${unique}.example/mod/lti/certs.php`,
      },
      tenant.auth,
    );
    expect(platform.status, platform.text).toBe(201);
    // a cohort of the mentor's
    const cohort = await server.post('/api/tenant/cohorts', { name: `Secret cohort ${unique}` }, tenant.auth);
    expect(cohort.status, cohort.text).toBe(201);
    ids = {
      webhookId: webhook.body.data._id,
      ltiRegistrationId: platform.body.data._id,
      cohortId: cohort.body.data._id,
      learnerIds: learner.user._id,
      ssoDomainId: ssoDomain.body.data._id,
      apiKeyId: key.body.data._id,
      scimTokenId: scimToken.body.data._id,
      userId: learner.user._id,
      learnerId: learner.user._id,
      linkId,
      testLinkId: linkId,
      attemptLinkId,
      assignedRoadmapId,
      roadmapId,
      questionId,
      assessmentId,
      invitationId: invited.body.data._id,
    };
    secrets = {
      learner: names.learner,
      learnerEmail: learner.account.email,
      mentor: names.tenant,
      mentorEmail: tenant.account.email,
      question: questionText,
      assessment: assessmentName,
      invitee,
    };
  }, 120_000);

  function tokenOf(kind: Kind, call: CallDef): string | undefined {
    if (kind === 'signedOut') return undefined;
    const extensionOnly = call.devices !== undefined && !call.devices.includes('WEB_APP');
    if (extensionOnly && (kind === 'learner' || kind === 'otherLearner')) return extension[kind].token;
    return people[kind].token;
  }

  async function send(name: string, call: CallDef, kind: Kind) {
    const example = readExample(name)?.request ?? {};
    const params = Object.fromEntries(
      [...call.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map(([, k]) => [
        k!,
        idFor(k!, call.path, ids) ?? String(example.params?.[k!] ?? '1'),
      ]),
    );
    const query = Object.fromEntries(
      Object.entries((withIds(example.query ?? {}, call.path, ids) as Record<string, unknown>) ?? {}).map(
        ([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)],
      ),
    );
    const body = example.body === undefined ? undefined : withIds(example.body, call.path, ids);
    const token = tokenOf(kind, call);
    const res = await server.app.inject({
      method: call.method,
      url: API_PREFIX + fillPath(call.path, params),
      query,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, text: res.body };
  }

  /** What is wrong with the answer to `kind` (nothing when it is as declared). */
  function judge(name: string, call: CallDef, kind: Kind, res: { status: number; text: string }): string[] {
    const problems: string[] = [];
    const where = `${name} as ${kind}: ${res.status}`;
    if (res.status >= 500) problems.push(`${where} (a server error) ${res.text.slice(0, 200)}`);
    if (!admits(call, kind)) {
      const want = kind === 'signedOut' ? 401 : 403;
      if (res.status !== want) problems.push(`${where}, not ${want}: the call does not admit this caller`);
    } else if (!owners(name, call).includes(kind) && res.status < 400) {
      problems.push(`${where}: answered a call about someone else's records`);
    }
    const { about, shows = [] } = ABOUT[name]!;
    // so that the refusals above mean something: the owners do read their records through the same request
    const ownerRead = call.method === 'GET' && ['learner', 'tenant', 'bank'].includes(about);
    if (ownerRead && owners(name, call)[0] === kind && !NO_RECORD.has(name) && res.status !== 200)
      problems.push(`${where}: the owner does not get its own record`);
    const mayRead = (secret: Secret) => {
      if (shows.includes(secret)) return true;
      // the learner sees itself, and on its own records the mentor who holds its seat
      if (kind === 'learner')
        return secret.startsWith('learner') || (about === 'learner' && secret.startsWith('mentor'));
      // the mentor sees the learner holding its seat, and its own records
      return kind === 'tenant';
    };
    for (const [secret, text] of Object.entries(secrets) as [Secret, string][])
      if (!mayRead(secret) && res.text.includes(text))
        problems.push(`${where}: shows the ${secret} "${text}"`);
    return problems;
  }

  it('has an entry for every call, and none for a call that does not exist', () => {
    const names = allCalls().map((c) => c.name);
    expect(
      names.filter((n) => !ABOUT[n]),
      'calls without an entry in ABOUT',
    ).toEqual([]);
    expect(
      Object.keys(ABOUT).filter((n) => !names.includes(n)),
      'entries for no call',
    ).toEqual([]);
  });

  it('answers each caller only what it may have', async () => {
    const problems: string[] = [];
    const table: string[] = [];
    for (const { name, call } of allCalls()) {
      if (DESTRUCTIVE.has(name)) continue;
      const row: string[] = [];
      for (const kind of KINDS) {
        const res = await send(name, call, kind);
        row.push(String(res.status));
        problems.push(...judge(name, call, kind, res));
      }
      table.push(`${name.padEnd(44)} ${row.join(' ')}`);
    }
    if (process.env.AUTHZ_TABLE) console.log(table.join('\n'));
    expect(problems).toEqual([]);
  }, 600_000);

  it('lets nobody else delete or end the owners’ records', async () => {
    const problems: string[] = [];
    for (const { name, call } of allCalls()) {
      if (!DESTRUCTIVE.has(name)) continue;
      const others = KINDS.filter(
        (k) => k === 'signedOut' || k.startsWith('other') || !owners(name, call).includes(k),
      );
      for (const kind of others) problems.push(...judge(name, call, kind, await send(name, call, kind)));
    }
    expect(problems).toEqual([]);
    // the owners' records are all still there
    const { learner, tenant } = people;
    expect((await server.get('/api/user/me', learner.auth)).status).toBe(200);
    expect((await server.get(`/api/testlink/${ids.linkId}/view`, learner.auth)).status).not.toBe(404);
    expect((await server.get(`/api/admin/question/${ids.questionId}`, tenant.auth)).status).toBe(200);
    expect((await server.get(`/api/tenant/assessment/${ids.assessmentId}`, tenant.auth)).status).toBe(200);
    expect((await server.get(`/api/tenant/users/user-info/${ids.userId}`, tenant.auth)).status).toBe(200);
    const invitations = await server.get('/api/tenant/users/invitations', tenant.auth);
    expect(invitations.text).toContain(ids.invitationId);
    const keys = await server.get('/api/tenant/api-keys', tenant.auth);
    expect(keys.body.data.find((k: { _id: string }) => k._id === ids.apiKeyId)?.status).toBe('ACTIVE');
    const scim = await server.get('/api/tenant/scim', tenant.auth);
    expect(scim.body.data.tokens.find((k: { _id: string }) => k._id === ids.scimTokenId)?.status).toBe(
      'ACTIVE',
    );
    const cohorts = await server.get('/api/tenant/cohorts', tenant.auth);
    expect(cohorts.body.data.map((c: { _id: string }) => c._id)).toContain(ids.cohortId);
    const sso = await server.get('/api/tenant/sso', tenant.auth);
    expect(sso.body.data.domains.map((d: { _id: string }) => d._id)).toContain(ids.ssoDomainId);
  }, 300_000);
});
