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
import type { FastifyReply } from 'fastify';
import { allowFraming } from './frame';
import type { LaunchRefused } from './platform';

/** JSON safe to put inside a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

const HEADINGS: Record<LaunchRefused['kind'], string> = {
  expired: 'This launch has expired',
  replayed: 'This launch was used already',
  'unknown-platform': 'This LMS is not registered with Waymark',
  'unknown-deployment': 'This course’s Waymark is not registered',
  'wrong-audience': 'This launch was meant for another tool',
  invalid: 'Waymark could not open this activity',
  paused: 'Waymark is paused for this LMS',
  seats: 'No Waymark seat is free for you',
  'not-allowed': 'Waymark cannot open this for you',
};

/** Who may frame a page: the origins of the platform it answers (frame.ts). */
export type Ancestors = readonly string[];

function page(
  reply: FastifyReply,
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
    .header('referrer-policy', 'no-referrer');
  return reply.send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Waymark</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:36rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}code{background:#f1f3f5;padding:.1rem .3rem;border-radius:3px}</style></head>
<body><main>${body}</main>${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`);
}

/** A refusal: what went wrong in a person's words, and a reference id the logs carry too. */
export function refusalPage(
  reply: FastifyReply,
  ancestors: Ancestors,
  err: LaunchRefused,
  reference: string,
  status?: number,
) {
  status ??= err.kind === 'seats' ? 403 : err.kind === 'unknown-platform' ? 404 : 400;
  return page(
    reply,
    ancestors,
    status,
    HEADINGS[err.kind],
    `<h1>${escapeHtml(HEADINGS[err.kind])}</h1><p>${escapeHtml(err.message)}</p>
<p>If it happens again, give your LMS administrator this reference: <code>${escapeHtml(reference)}</code></p>`,
  );
}

/**
 * The platform storage step (LTI Client Side postMessages: lti.put_data): the state goes into the
 * platform's frame, then this frame goes on to the platform's sign-in. A platform that does not answer in
 * 3 seconds is passed by (the launch then cannot read the state back, and fails in words).
 */
export function storagePage(
  reply: FastifyReply,
  ancestors: Ancestors,
  a: { url: string; target: string; origin: string; key: string; state: string },
) {
  return page(
    reply,
    ancestors,
    200,
    'Opening Waymark',
    '<h1>Opening Waymark…</h1><noscript><p>Waymark needs JavaScript to open inside your course.</p></noscript>',
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

/**
 * The launch page: reads the state back from platform storage when it was put there (lti.get_data). A
 * deep-linking request then exchanges the one-time code at POST /api/lti/session here and shows the picker
 * (its choice posted back to the LMS as JWT); any other launch goes on, in the same frame, to the portal's
 * page for this launch (/lti/app/{id}), handing it the code and state in the address's fragment, which no
 * request carries.
 */
export function launchPage(
  reply: FastifyReply,
  ancestors: Ancestors,
  a: {
    code: string;
    launchId: string;
    deepLinking: boolean;
    storage: { target: string; origin: string; key: string } | null;
  },
) {
  return page(
    reply,
    ancestors,
    200,
    'Opening Waymark',
    '<h1 id="t">Opening Waymark…</h1><p id="m"></p><noscript><p>Waymark needs JavaScript to open inside your course.</p></noscript>',
    `(function(){var a=${scriptJson(a)};
function fail(m){document.getElementById('t').textContent='Waymark could not open this activity';document.getElementById('m').textContent=m;}
function say(t,m){document.getElementById('t').textContent=t;document.getElementById('m').textContent=m;}
function go(state){var f=new URLSearchParams({code:a.code});if(state)f.set('state',state);window.location.replace('/lti/app/'+encodeURIComponent(a.launchId)+'#'+f.toString());}
function pick(d){var h={'x-lti-launch':d.launchToken};say('Add a Waymark assessment','Choose what to add to '+(d.contextTitle||'your course')+'.');
fetch('/api/lti/deep-linking/options',{headers:h,credentials:'omit'}).then(function(r){return r.json();}).then(function(b){
if(!b.data){fail(b.message||'The picker could not be opened.');return;}
var f=document.createElement('form');var items=b.data.items;
if(!items.length){say('Nothing to add yet','Make an assessment in Waymark first, then add it from here.');return;}
var kinds={ROADMAP:' (the roadmap: its progress is the grade)',SECTION:' (section test)',RESOURCE:' (resource test)'};var sets={};
items.forEach(function(it,n){var g=it.group||(it.kind==='SUBJECT'?'Subject tests':'Your assessments');var fs=sets[g];
if(!fs){fs=sets[g]=document.createElement('fieldset');var lg=document.createElement('legend');lg.textContent=g;fs.appendChild(lg);f.appendChild(fs);}
var l=document.createElement('label');var c=document.createElement('input');c.type=b.data.acceptMultiple?'checkbox':'radio';c.name='pick';c.value=String(n);l.appendChild(c);l.appendChild(document.createTextNode(' '+it.title+(kinds[it.kind]||'')));fs.appendChild(l);fs.appendChild(document.createElement('br'));});
var s=document.createElement('button');s.type='submit';s.textContent='Add to the course';f.appendChild(s);
f.addEventListener('submit',function(e){e.preventDefault();var chosen=[].slice.call(f.querySelectorAll('input:checked')).map(function(c){var it=items[Number(c.value)];return{target:it.target,title:it.title};});
if(!chosen.length){say('Add a Waymark assessment','Choose at least one.');return;}
fetch('/api/lti/deep-linking/response',{method:'POST',headers:{'x-lti-launch':d.launchToken,'content-type':'application/json'},credentials:'omit',body:JSON.stringify({items:chosen})}).then(function(r){return r.json();}).then(function(b2){
if(!b2.data){fail(b2.message||'The choice could not be sent.');return;}
var back=document.createElement('form');back.method='POST';back.action=b2.data.returnUrl;var t=document.createElement('input');t.type='hidden';t.name='JWT';t.value=b2.data.jwt;back.appendChild(t);document.body.appendChild(back);back.submit();});});
document.getElementById('m').appendChild(f);});}
function exchange(state){if(!a.deepLinking){go(state);return;}fetch('/api/lti/session',{method:'POST',headers:{'content-type':'application/json'},credentials:'omit',
body:JSON.stringify(state?{code:a.code,state:state}:{code:a.code})}).then(function(r){return r.json().then(function(b){
if(!r.ok){fail(b.message||'The launch could not be finished.');return;}
pick(b.data);});},
function(){fail('Waymark could not be reached. Check your connection and open the activity again.');});}
if(!a.storage){exchange(null);return;}
var s=a.storage;var frame=s.target==='_parent'?window.parent:(window.parent.frames[s.target]||window.parent);
var id='get-'+Math.random().toString(36).slice(2);var timer=setTimeout(function(){fail('Your LMS did not give back the launch. Open the activity again.');},5000);
window.addEventListener('message',function(e){if(e.origin!==s.origin)return;var d=e.data||{};
if(d.subject==='lti.get_data.response'&&d.message_id===id){clearTimeout(timer);
if(d.error){fail('Your LMS did not give back the launch. Open the activity again.');return;}exchange(String(d.value||''));}});
frame.postMessage({subject:'lti.get_data',message_id:id,key:s.key},s.origin);})();`,
  );
}

/** The end of a Dynamic Registration: what was registered, then the LMS is told to close its window. */
export function registeredPage(
  reply: FastifyReply,
  ancestors: Ancestors,
  r: { label: string; issuer: string; clientId: string; deploymentIds: string[] },
) {
  return page(
    reply,
    ancestors,
    200,
    'Waymark is registered',
    `<h1>Waymark is registered</h1><p>${escapeHtml(r.label)} (${escapeHtml(r.issuer)}) can now launch Waymark.</p>
<dl><dt>Client id</dt><dd><code>${escapeHtml(r.clientId)}</code></dd><dt>Deployment</dt><dd>${
      r.deploymentIds.map((d) => `<code>${escapeHtml(d)}</code>`).join(', ') || 'none yet'
    }</dd></dl><p><button type="button" id="close">Close</button></p>`,
    `(function(){function close(){(window.opener||window.parent).postMessage({subject:'org.imsglobal.lti.close'},'*');}
document.getElementById('close').addEventListener('click',close);})();`,
  );
}

/** A Dynamic Registration that could not finish, in words, with a reference. */
export function registrationFailedPage(
  reply: FastifyReply,
  ancestors: Ancestors,
  message: string,
  reference: string,
  status = 400,
) {
  return page(
    reply,
    ancestors,
    status,
    'Waymark could not be registered',
    `<h1>Waymark could not be registered</h1><p>${escapeHtml(message)}</p>
<p>Reference: <code>${escapeHtml(reference)}</code></p>`,
  );
}
