/**
 * Drives LTI launches through a Waymark test server from the mock platform (server/test/lti-platform.ts):
 * login initiation, the platform's id_token posted to the launch, the launch page's one-time code exchanged
 * for the session, as a browser in the LMS's frame does.
 */
import { expect } from 'vitest';
import type { TestServer } from './helper';
import { CLAIM, type MockPlatform, ROLE } from './lti-platform';

const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const CUSTOM_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/custom';
const DL_SETTINGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings';

/** The claims of an instructor's deep-linking request (LTI Deep Linking 2.0 §4.4), its settings' `data`. */
export const deepLinkingClaims = (platform: MockPlatform, data = 'opaque-platform-data') => ({
  [CLAIM.messageType]: 'LtiDeepLinkingRequest',
  [CLAIM.resourceLink]: undefined,
  [CLAIM.roles]: [ROLE.instructor],
  [DL_SETTINGS_CLAIM]: {
    deep_link_return_url: `${platform.base}/deep-link-return`,
    accept_types: ['ltiResourceLink'],
    accept_presentation_document_targets: ['iframe', 'window'],
    accept_multiple: true,
    data,
  },
});

export function ltiDriver(server: TestServer, platform: MockPlatform) {
  const launchUrl = () => `${server.config.publicUrl.replace(/\/+$/, '')}/lti/launch`;
  /** The launch's form post with the platform's id_token carrying `claims`; the page's HTTP answer. */
  async function launch(claims: Record<string, unknown>) {
    const q = new URLSearchParams({
      iss: platform.issuer,
      login_hint: 'lms-user',
      target_link_uri: launchUrl(),
      client_id: platform.clientId,
      lti_deployment_id: platform.deploymentId,
    });
    const login = await server.app.inject({ method: 'GET', url: `/lti/login?${q}` });
    expect(login.statusCode, login.body).toBe(302);
    const to = new URL(String(login.headers.location));
    const state = to.searchParams.get('state')!;
    const idToken = await platform.idToken(
      to.searchParams.get('nonce')!,
      platform.clientId,
      launchUrl(),
      claims,
    );
    return server.app.inject({
      method: 'POST',
      url: '/lti/launch',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ id_token: idToken, state }).toString(),
    });
  }
  /** A launch that succeeds, and its session (what it opens, the launch token, a learner's session). */
  async function session(claims: Record<string, unknown>) {
    const page = await launch(claims);
    expect(page.statusCode, page.body).toBe(200);
    const code = /"code":"([A-Za-z0-9_-]+)"/.exec(page.body)![1]!;
    const res = await server.post('/api/lti/session', { code });
    expect(res.status, res.text).toBe(200);
    return res.body.data as {
      opens: { page: string; linkId?: string; assignedRoadmapId?: string };
      launchToken: string;
      session: { token: string } | null;
    };
  }
  /** A learner's launch of a link opening `target`, graded into `lineItem` (a path of the platform's). */
  const learner = (sub: string, resourceLinkId: string, target: string, lineItem?: string) =>
    session({
      sub,
      email: `${sub}@example.edu`,
      [CLAIM.resourceLink]: { id: resourceLinkId },
      [CUSTOM_CLAIM]: { waymark_target: target },
      ...(lineItem
        ? {
            [AGS_CLAIM]: {
              scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
              lineitems: `${platform.base}/lineitems`,
              lineitem: `${platform.base}/lineitems/${lineItem}`,
            },
          }
        : {}),
    });
  /** An instructor's deep-linking launch: the launch token the picker's calls carry. */
  async function picker(data = 'opaque-platform-data') {
    const s = await session({ sub: 'teacher-dl', ...deepLinkingClaims(platform, data) });
    return { headers: { 'x-lti-launch': s.launchToken } };
  }
  return { launchUrl, launch, session, learner, picker };
}
