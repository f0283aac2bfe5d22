/**
 * The small pages the LTI endpoints answer inside the LMS's frame (decision 044): a refusal in a person's
 * words with a reference id, the step that puts the state in the platform's storage before the sign-in,
 * the launch page that reads it back and exchanges its one-time code, and the end of a Dynamic
 * Registration. Each page's script carries a nonce of its own (its CSP allows nothing else), and the page
 * may be framed only by the platform it answers (frame.ts: the registration's origins; nobody when the
 * platform is not known).
 */
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '@shared/formats/html';
import type { MessageKey } from '@shared/i18n/keys';
import { type RichPart, richParts, type Translator } from '@shared/i18n/translator';
import type { FastifyReply } from 'fastify';
import { allowFraming } from './frame';
import type { LaunchRefused } from './platform';

/** JSON safe to put inside a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

const HEADINGS: Record<LaunchRefused['kind'], MessageKey> = {
  expired: 'lti.refused.expired',
  replayed: 'lti.refused.replayed',
  'unknown-platform': 'lti.refused.unknownPlatform',
  'unknown-deployment': 'lti.refused.unknownDeployment',
  'wrong-audience': 'lti.refused.wrongAudience',
  invalid: 'lti.failedTitle',
  paused: 'lti.refused.paused',
  seats: 'lti.refused.seats',
  'not-allowed': 'lti.refused.notAllowed',
};

/** A message with a `<0>…</0>` tag as HTML: its text escaped, the tag a `<code>`. */
function withCode(parts: RichPart[]): string {
  return parts
    .map((p) => (typeof p === 'string' ? escapeHtml(p) : `<code dir="ltr">${withCode(p.children)}</code>`))
    .join('');
}

/** Who may frame a page: the origins of the platform it answers (frame.ts). */
export type Ancestors = readonly string[];

function page(
  reply: FastifyReply,
  t: Translator,
  ancestors: Ancestors,
  status: number,
  title: string,
  body: string,
  script?: string,
) {
  const nonce = randomBytes(16).toString('base64');
  allowFraming(
    reply,
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action *; base-uri 'none'`,
    ancestors,
  )
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('content-language', t.locale);
  return reply.send(`<!doctype html>
<html lang="${t.locale}" dir="${t.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Waymark</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:36rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}code{background:#f1f3f5;padding:.1rem .3rem;border-radius:3px}</style></head>
<body><main>${body}</main>${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`);
}

/** A refusal: what went wrong in a person's words (in `t`'s language), and a reference id the logs carry too. */
export function refusalPage(
  reply: FastifyReply,
  t: Translator,
  ancestors: Ancestors,
  err: LaunchRefused,
  reference: string,
  status?: number,
) {
  status ??= err.kind === 'seats' ? 403 : err.kind === 'unknown-platform' ? 404 : 400;
  const heading = t.t(HEADINGS[err.kind]);
  return page(
    reply,
    t,
    ancestors,
    status,
    heading,
    `<h1>${escapeHtml(heading)}</h1><p>${escapeHtml(err.saidIn(t))}</p>
<p>${withCode(richParts(t.t('lti.refused.reference', { reference })))}</p>`,
  );
}

/**
 * The platform storage step (LTI Client Side postMessages: lti.put_data): the state goes into the
 * platform's frame, then this frame goes on to the platform's sign-in. A platform that does not answer in
 * 3 seconds is passed by (the launch then cannot read the state back, and fails in words).
 */
export function storagePage(
  reply: FastifyReply,
  t: Translator,
  ancestors: Ancestors,
  a: { url: string; target: string; origin: string; key: string; state: string },
) {
  const opening = t.t('lti.page.opening');
  return page(
    reply,
    t,
    ancestors,
    200,
    opening,
    `<h1>${escapeHtml(opening)}</h1><noscript><p>${escapeHtml(t.t('lti.page.needsScript'))}</p></noscript>`,
    `(function(){var a=${scriptJson(a)};
var frame=a.target==='_parent'?window.parent:(window.parent.frames[a.target]||window.parent);
var id='put-'+Math.random().toString(36).slice(2);var done=false;
function go(){if(done)return;done=true;window.location.replace(a.url);}
window.addEventListener('message',function(e){if(e.origin!==a.origin)return;var d=e.data||{};
if(d.subject==='lti.put_data.response'&&d.message_id===id){go();}});
frame.postMessage({subject:'lti.put_data',message_id:id,key:a.key,value:a.state},a.origin);
setTimeout(go,3000);})();`,
  );
}

/** The launch page's words, said on the server in the page's language (`{title}` is filled in by the script). */
function launchWords(t: Translator, contextTitle: string | null) {
  const titled = (key: MessageKey) => t.t(key, { title: '{title}' });
  return {
    failed: t.t('lti.failedTitle'),
    add: t.t('lti.page.add'),
    choose: t.t('lti.page.chooseFor', { course: contextTitle ?? t.t('lti.yourCourse') }),
    pickerFailed: t.t('lti.page.pickerFailed'),
    nothing: t.t('lti.page.nothingTitle'),
    nothingText: t.t('lti.page.nothingText'),
    kinds: {
      ROADMAP: titled('lti.page.itemRoadmap'),
      SECTION: titled('lti.page.itemSection'),
      RESOURCE: titled('lti.page.itemResource'),
    },
    subjectTests: t.t('lti.page.subjectTests'),
    yours: t.t('lti.page.yourAssessments'),
    submit: t.t('lti.page.addToCourse'),
    chooseOne: t.t('lti.page.chooseOne'),
    notSent: t.t('lti.page.notSent'),
    notFinished: t.t('lti.page.notFinished'),
    unreachable: t.t('lti.page.unreachable'),
    notGivenBack: t.t('lti.page.notGivenBack'),
  };
}

/**
 * The launch page: reads the state back from platform storage when it was put there (lti.get_data). A
 * deep-linking request then exchanges the one-time code at POST /api/lti/session here and shows the picker
 * (its choice posted back to the LMS as JWT); any other launch goes on, in the same frame, to the portal's
 * page for this launch (/lti/app/{id}), handing it the code and state in the address's fragment, which no
 * request carries, and the language in `?lang=` (the portal starts in it; a signed-in learner's profile
 * language, once the session is open, comes first). Its words are in `t`'s language, and its calls ask the
 * server for that language too.
 */
export function launchPage(
  reply: FastifyReply,
  t: Translator,
  ancestors: Ancestors,
  a: {
    code: string;
    launchId: string;
    deepLinking: boolean;
    storage: { target: string; origin: string; key: string } | null;
    contextTitle: string | null;
  },
) {
  const { contextTitle, ...given } = a;
  const opening = t.t('lti.page.opening');
  return page(
    reply,
    t,
    ancestors,
    200,
    opening,
    `<h1 id="t">${escapeHtml(opening)}</h1><p id="m"></p><noscript><p>${escapeHtml(t.t('lti.page.needsScript'))}</p></noscript>`,
    `(function(){var a=${scriptJson(given)};var w=${scriptJson(launchWords(t, contextTitle))};var lang=${scriptJson(t.locale)};
function fail(m){document.getElementById('t').textContent=w.failed;document.getElementById('m').textContent=m;}
function say(t,m){document.getElementById('t').textContent=t;document.getElementById('m').textContent=m;}
function go(state){var f=new URLSearchParams({code:a.code});if(state)f.set('state',state);window.location.replace('/lti/app/'+encodeURIComponent(a.launchId)+'?lang='+encodeURIComponent(lang)+'#'+f.toString());}
function pick(d){var h={'x-lti-launch':d.launchToken,'accept-language':lang};say(w.add,w.choose);
fetch('/api/lti/deep-linking/options',{headers:h,credentials:'omit'}).then(function(r){return r.json();}).then(function(b){
if(!b.data){fail(b.message||w.pickerFailed);return;}
var f=document.createElement('form');var items=b.data.items;
if(!items.length){say(w.nothing,w.nothingText);return;}
var sets={};
items.forEach(function(it,n){var g=it.group||(it.kind==='SUBJECT'?w.subjectTests:w.yours);var fs=sets[g];
if(!fs){fs=sets[g]=document.createElement('fieldset');var lg=document.createElement('legend');lg.textContent=g;fs.appendChild(lg);f.appendChild(fs);}
var l=document.createElement('label');var c=document.createElement('input');c.type=b.data.acceptMultiple?'checkbox':'radio';c.name='pick';c.value=String(n);l.appendChild(c);
var k=w.kinds[it.kind];l.appendChild(document.createTextNode(' '+(k?k.split('{title}').join(it.title):it.title)));fs.appendChild(l);fs.appendChild(document.createElement('br'));});
var s=document.createElement('button');s.type='submit';s.textContent=w.submit;f.appendChild(s);
f.addEventListener('submit',function(e){e.preventDefault();var chosen=[].slice.call(f.querySelectorAll('input:checked')).map(function(c){var it=items[Number(c.value)];return{target:it.target,title:it.title};});
if(!chosen.length){say(w.add,w.chooseOne);return;}
fetch('/api/lti/deep-linking/response',{method:'POST',headers:{'x-lti-launch':d.launchToken,'content-type':'application/json','accept-language':lang},credentials:'omit',body:JSON.stringify({items:chosen})}).then(function(r){return r.json();}).then(function(b2){
if(!b2.data){fail(b2.message||w.notSent);return;}
var back=document.createElement('form');back.method='POST';back.action=b2.data.returnUrl;var t=document.createElement('input');t.type='hidden';t.name='JWT';t.value=b2.data.jwt;back.appendChild(t);document.body.appendChild(back);back.submit();});});
document.getElementById('m').appendChild(f);});}
function exchange(state){if(!a.deepLinking){go(state);return;}fetch('/api/lti/session',{method:'POST',headers:{'content-type':'application/json','accept-language':lang},credentials:'omit',
body:JSON.stringify(state?{code:a.code,state:state}:{code:a.code})}).then(function(r){return r.json().then(function(b){
if(!r.ok){fail(b.message||w.notFinished);return;}
pick(b.data);});},
function(){fail(w.unreachable);});}
if(!a.storage){exchange(null);return;}
var s=a.storage;var frame=s.target==='_parent'?window.parent:(window.parent.frames[s.target]||window.parent);
var id='get-'+Math.random().toString(36).slice(2);var timer=setTimeout(function(){fail(w.notGivenBack);},5000);
window.addEventListener('message',function(e){if(e.origin!==s.origin)return;var d=e.data||{};
if(d.subject==='lti.get_data.response'&&d.message_id===id){clearTimeout(timer);
if(d.error){fail(w.notGivenBack);return;}exchange(String(d.value||''));}});
frame.postMessage({subject:'lti.get_data',message_id:id,key:s.key},s.origin);})();`,
  );
}

/** The end of a Dynamic Registration: what was registered, then the LMS is told to close its window. */
export function registeredPage(
  reply: FastifyReply,
  t: Translator,
  ancestors: Ancestors,
  r: { label: string; issuer: string; clientId: string; deploymentIds: string[] },
) {
  const heading = t.t('lti.page.registered');
  const deployments = r.deploymentIds.map((d) => `<code dir="ltr">${escapeHtml(d)}</code>`);
  return page(
    reply,
    t,
    ancestors,
    200,
    heading,
    `<h1>${escapeHtml(heading)}</h1><p>${escapeHtml(t.t('lti.page.registeredText', { label: r.label, issuer: r.issuer }))}</p>
<dl><dt>${escapeHtml(t.t('lti.page.clientId'))}</dt><dd><code dir="ltr">${escapeHtml(r.clientId)}</code></dd><dt>${escapeHtml(
      t.t('lti.page.deployment'),
    )}</dt><dd>${deployments.length ? t.list(deployments) : escapeHtml(t.t('lti.page.noDeployment'))}</dd></dl><p><button type="button" id="close">${escapeHtml(
      t.t('lti.page.close'),
    )}</button></p>`,
    `(function(){function close(){(window.opener||window.parent).postMessage({subject:'org.imsglobal.lti.close'},'*');}
document.getElementById('close').addEventListener('click',close);})();`,
  );
}

/** A Dynamic Registration that could not finish, in words, with a reference. */
export function registrationFailedPage(
  reply: FastifyReply,
  t: Translator,
  ancestors: Ancestors,
  message: string,
  reference: string,
  status = 400,
) {
  const heading = t.t('lti.page.notRegistered');
  return page(
    reply,
    t,
    ancestors,
    status,
    heading,
    `<h1>${escapeHtml(heading)}</h1><p>${escapeHtml(message)}</p>
<p>${withCode(richParts(t.t('lti.page.reference', { reference })))}</p>`,
  );
}
