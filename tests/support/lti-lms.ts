/**
 * The e2e's LMS (decision 045): the mock platform of the server tests (server/test/lti-platform.ts) on
 * `localhost` — another site than Waymark's 127.0.0.1 — with the pages a browser meets, written from the
 * 1EdTech texts: a course page that frames Waymark's login initiation and answers the LTI Client Side
 * postMessages (lti.put_data / lti.get_data, platform storage, with `lti_storage_target` _parent), the OIDC
 * authorisation endpoint that answers with a form_post of the id_token, the Deep Linking return (its JWT
 * checked with jsonwebtoken against Waymark's key set), the links it made, and a gradebook of the scores
 * posted (AGS). A probe on 127.0.0.1 sets a SameSite=None cookie, to show whether third-party cookies pass.
 */
import { createPublicKey } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLAIM, jsonwebtoken, MockPlatform, ROLE } from '../../server/test/lti-platform';

const DL = {
  settings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  contentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
};
const AGS = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const CUSTOM = 'https://purl.imsglobal.org/spec/lti/claim/custom';
const PRESENTATION = 'https://purl.imsglobal.org/spec/lti/claim/launch_presentation';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function readForm(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function html(res: ServerResponse, title: string, body: string, status = 200) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${body}</body></html>`,
  );
}

/** A link the instructor added by Deep Linking: what a learner's launch of it carries. */
export interface CourseLink {
  id: string;
  title: string;
  custom: Record<string, string>;
  lineItem: string;
}

export class MockLms {
  readonly platform = new MockPlatform();
  links: CourseLink[] = [];
  /** Every platform-storage message the course page answered (subject and key). */
  storage: { subject: string; key: string }[] = [];

  constructor(private readonly waymark: string) {}

  get base() {
    return this.platform.base;
  }

  /** The probe's address on Waymark's site (127.0.0.1), another site than the course page's. */
  get probe() {
    return this.base.replace('//localhost:', '//127.0.0.1:');
  }

  async start() {
    this.platform.toolJwksUrl = `${this.waymark}/lti/jwks`;
    this.platform.extraRoutes = (req, res, url) => this.route(req, res, url);
    await this.platform.start({ host: 'localhost' });
    return this;
  }

  close() {
    return this.platform.close();
  }

  /** The course page of `user`: Waymark framed, launched for `link` (a link's id, or 'add' to add one). */
  coursePage(user: string, role: 'learner' | 'instructor', link: string) {
    return `${this.base}/course?${new URLSearchParams({ user, role, link })}`;
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    switch (url.pathname) {
      case '/course':
        this.course(res, url);
        return true;
      case '/auth':
        this.authorize(res, url);
        return true;
      case '/deep-link-return':
        if (req.method !== 'POST') return false;
        await this.deepLinkReturn(req, res);
        return true;
      case '/storage-log':
        if (req.method !== 'POST') return false;
        this.storage.push(JSON.parse((await readForm(req)).get('m') ?? '{}'));
        res.writeHead(204).end();
        return true;
      case '/gradebook':
        this.gradebook(res);
        return true;
      case '/probe/set':
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'set-cookie': 'wm_probe=1; SameSite=None; Secure; Path=/',
        });
        res.end('<!doctype html><html lang="en"><title>probe</title><p>probe</p></html>');
        return true;
      case '/frame':
        // any page of Waymark's, framed by this site (it must be refused)
        html(
          res,
          'Framing test',
          `<main><h1>Framing test</h1><iframe title="Framed" src="${esc(url.searchParams.get('src') ?? '')}"></iframe></main>`,
        );
        return true;
      default:
        return false;
    }
  }

  /**
   * The course page: Waymark in an iframe, started by the third-party login initiation; the page answers
   * the frame's platform-storage messages (LTI Client Side postMessages: the response goes to the sender,
   * for the sender's origin only) and keeps the values in its own memory.
   */
  private course(res: ServerResponse, url: URL) {
    const user = url.searchParams.get('user') ?? 'someone';
    const role = url.searchParams.get('role') === 'instructor' ? 'instructor' : 'learner';
    const link = url.searchParams.get('link') ?? 'add';
    const login = new URL(`${this.waymark}/lti/login`);
    for (const [k, v] of Object.entries({
      iss: this.platform.issuer,
      login_hint: user,
      target_link_uri: `${this.waymark}/lti/launch`,
      client_id: this.platform.clientId,
      lti_deployment_id: this.platform.deploymentId,
      lti_message_hint: JSON.stringify({ role, link }),
      lti_storage_target: '_parent',
    })) {
      login.searchParams.set(k, v);
    }
    const waymarkOrigin = new URL(this.waymark).origin;
    html(
      res,
      'Course One',
      `<main><h1>Course One</h1><p>Week 1</p>
<iframe name="waymark" title="Waymark" src="${esc(login.href)}" style="width:100%;height:720px;border:1px solid #ccc"
 allow="fullscreen"></iframe></main>
<script>(function(){var store={};var origin=${JSON.stringify(waymarkOrigin)};
window.addEventListener('message',function(e){if(e.origin!==origin)return;var m=e.data||{};
function log(){var f=new URLSearchParams({m:JSON.stringify({subject:m.subject,key:m.key})});navigator.sendBeacon('/storage-log',f);}
if(m.subject==='lti.put_data'){store[m.key]=m.value;log();e.source.postMessage({subject:'lti.put_data.response',message_id:m.message_id,key:m.key,value:m.value},e.origin);}
if(m.subject==='lti.get_data'){log();e.source.postMessage(m.key in store?{subject:'lti.get_data.response',message_id:m.message_id,key:m.key,value:store[m.key]}:{subject:'lti.get_data.response',message_id:m.message_id,error:{code:'bad_request',message:'no such key'}},e.origin);}
});})();</script>`,
    );
  }

  /** The OIDC authorisation endpoint: mints the id_token for the login hint, and posts it to Waymark. */
  private authorize(res: ServerResponse, url: URL) {
    const q = url.searchParams;
    if (
      q.get('client_id') !== this.platform.clientId ||
      q.get('redirect_uri') !== `${this.waymark}/lti/launch`
    ) {
      html(res, 'Refused', '<main><h1>Refused</h1></main>', 400);
      return;
    }
    const hint = JSON.parse(q.get('lti_message_hint') ?? '{}') as { role?: string; link?: string };
    const user = q.get('login_hint') ?? 'someone';
    const claims: Record<string, unknown> = {
      sub: user,
      name: hint.role === 'instructor' ? 'Ivo Instructor' : 'Lina Learner',
      email: `${user}@example.edu`,
      [CLAIM.roles]: [hint.role === 'instructor' ? ROLE.instructor : ROLE.learner],
      [PRESENTATION]: { document_target: 'iframe', return_url: `${this.base}/course` },
    };
    if (hint.link === 'add') {
      claims[CLAIM.messageType] = 'LtiDeepLinkingRequest';
      claims[CLAIM.resourceLink] = undefined;
      claims[DL.settings] = {
        deep_link_return_url: `${this.base}/deep-link-return`,
        accept_types: ['ltiResourceLink'],
        accept_presentation_document_targets: ['iframe'],
        accept_multiple: false,
        data: 'course-1-week-1',
      };
    } else {
      const link = this.links.find((l) => l.id === hint.link);
      claims[CLAIM.resourceLink] = { id: hint.link, title: link?.title ?? 'Activity' };
      if (link) {
        claims[CUSTOM] = link.custom;
        claims[AGS] = {
          scope: [
            'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
            'https://purl.imsglobal.org/spec/lti-ags/scope/score',
          ],
          lineitems: `${this.base}/lineitems`,
          lineitem: link.lineItem,
        };
      }
    }
    void this.platform
      .idToken(q.get('nonce') ?? '', this.platform.clientId, `${this.waymark}/lti/launch`, claims)
      .then((idToken) =>
        html(
          res,
          'Signing in',
          `<main><h1>Signing in to Waymark…</h1><form id="f" method="post" action="${esc(q.get('redirect_uri')!)}">
<input type="hidden" name="id_token" value="${esc(idToken)}"><input type="hidden" name="state" value="${esc(q.get('state') ?? '')}">
<noscript><button>Continue</button></noscript></form></main><script>document.getElementById('f').submit();</script>`,
        ),
      );
  }

  /** Deep Linking 2.0 §4: the tool's response, checked with jsonwebtoken against the tool's key set. */
  private async deepLinkReturn(req: IncomingMessage, res: ServerResponse) {
    const jwt = (await readForm(req)).get('JWT') ?? '';
    const decoded = jsonwebtoken.decode(jwt, { complete: true });
    const set = (await (await fetch(this.platform.toolJwksUrl)).json()) as {
      keys: Record<string, unknown>[];
    };
    const jwk = set.keys.find((k) => k.kid === decoded?.header.kid);
    let payload: Record<string, unknown>;
    try {
      payload = jsonwebtoken.verify(jwt, createPublicKey({ key: jwk as never, format: 'jwk' }), {
        algorithms: ['RS256'],
        audience: this.platform.issuer,
        issuer: this.platform.clientId,
      }) as unknown as Record<string, unknown>;
    } catch (err) {
      html(res, 'Refused', `<main><h1>Refused</h1><p>${esc((err as Error).message)}</p></main>`, 400);
      return;
    }
    const items = (payload[DL.contentItems] ?? []) as {
      type: string;
      title?: string;
      custom?: Record<string, string>;
      lineItem?: { label?: string; scoreMaximum?: number };
    }[];
    const added = items.filter((i) => i.type === 'ltiResourceLink');
    for (const item of added) {
      const id = `link-${this.links.length + 1}`;
      this.links.push({
        id,
        title: item.title ?? item.lineItem?.label ?? 'Waymark activity',
        custom: item.custom ?? {},
        lineItem: `${this.base}/lineitems/${id}`,
      });
    }
    html(
      res,
      'Activity added',
      `<main><h1>Activity added</h1><ul>${added.map((i) => `<li>${esc(i.title ?? '')}</li>`).join('')}</ul></main>`,
    );
  }

  /** The gradebook: every score the tool posted, by activity. */
  private gradebook(res: ServerResponse) {
    const rows = this.platform.scores
      .map((s) => {
        const link = this.links.find((l) => l.id === s.lineItem);
        return `<tr><td>${esc(link?.title ?? s.lineItem)}</td><td>${esc(String(s.body.userId))}</td><td>${esc(
          `${s.body.scoreGiven} / ${s.body.scoreMaximum}`,
        )}</td><td>${esc(String(s.body.gradingProgress))}</td></tr>`;
      })
      .join('');
    html(
      res,
      'Gradebook',
      `<main><h1>Gradebook</h1><table><caption>Scores</caption><thead><tr><th scope="col">Activity</th><th scope="col">Learner</th><th scope="col">Score</th><th scope="col">Grading</th></tr></thead><tbody>${rows}</tbody></table></main>`,
    );
  }
}
