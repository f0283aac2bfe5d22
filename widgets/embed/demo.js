/**
 * The demo page's script (dist/widgets/demo.js): logs the widgets' events, shows a course inline when a
 * card's image is chosen (by cancelling wm-open-course), and runs a small single-page app that creates
 * and removes the elements as its views change.
 */
const base = new URL('./', import.meta.url);
const waymark = base.origin;
const log = document.getElementById('event-log');
const course = document.getElementById('course');

const EVENTS = ['wm-load', 'wm-error', 'wm-open-course', 'wm-select', 'wm-assessment', 'wm-assigned'];
for (const type of EVENTS) {
  document.addEventListener(type, (e) => {
    const item = document.createElement('li');
    const where = e.target?.id || e.target?.closest?.('[id]')?.id || e.target?.localName;
    item.textContent = `${type} from ${where}: ${JSON.stringify(e.detail)}`;
    log?.append(item);
  });
}

// the first catalogue: its images show the course below instead of leaving the page
document.getElementById('catalogue')?.addEventListener('wm-open-course', (e) => {
  e.preventDefault();
  course?.setAttribute('roadmap-id', e.detail.roadmapId);
  document.getElementById('course-title')?.scrollIntoView({ block: 'start' });
});

// the course shown first: the first roadmap of the catalogue
fetch(`${waymark}/api/roadmap/list/no-auth`)
  .then((res) => (res.ok ? res.json() : null))
  .then((body) => {
    const first = body?.data?.[0];
    if (first && course && !course.getAttribute('roadmap-id')) course.setAttribute('roadmap-id', first._id);
  })
  .catch(() => undefined);

// the award: its page's address or its link id, from the form or from ?award= in this page's address
const award = document.getElementById('award');
function showAward(value) {
  const id = String(value ?? '')
    .trim()
    .split(/[?#]/)[0]
    .split('/')
    .filter(Boolean)
    .pop();
  if (!award || !id) return;
  award.setAttribute('link-id', id);
  award.hidden = false;
}
document.getElementById('award-form')?.addEventListener('submit', (e) => {
  e.preventDefault();
  showAward(new FormData(e.currentTarget).get('link'));
});
showAward(new URLSearchParams(location.search).get('award'));

// a single-page app with a hash router: #/app, #/app/course/{id}, #/app/dashboard, #/app/about
const view = document.getElementById('spa-view');
function render() {
  if (!view) return;
  const hash = location.hash;
  if (!hash.startsWith('#/app')) {
    if (!view.firstChild) show(catalogueView());
    return;
  }
  const courseMatch = hash.match(/^#\/app\/course\/([\w-]+)$/);
  if (courseMatch) show(courseView(courseMatch[1]));
  else if (hash === '#/app/dashboard') show(dashboardView());
  else if (hash === '#/app/about') show(aboutView());
  else show(catalogueView());
  view.focus({ preventScroll: true });
}
function show(node) {
  view.replaceChildren(node);
}
function catalogueView() {
  const el = document.createElement('wm-roadmap-catalogue');
  // attributes set one by one after creation: the element renders once, with all of them
  el.setAttribute('heading', 'Courses in our app');
  el.setAttribute('limit', '4');
  el.addEventListener('wm-open-course', (e) => {
    e.preventDefault();
    location.hash = `#/app/course/${e.detail.roadmapId}`;
  });
  return el;
}
function courseView(id) {
  const wrap = document.createElement('div');
  const back = document.createElement('a');
  back.href = '#/app';
  back.textContent = '← Back to the catalogue';
  const el = document.createElement('wm-course-detail');
  wrap.append(back, el);
  el.setAttribute('heading-level', '2');
  el.setAttribute('roadmap-id', id);
  return wrap;
}
function dashboardView() {
  const el = document.createElement('wm-dashboard');
  el.setAttribute('range', 'Last 28 Days');
  return el;
}
function aboutView() {
  const p = document.createElement('p');
  p.textContent = 'This view has no widget: the elements of the other views were removed from the page.';
  return p;
}
window.addEventListener('hashchange', render);
render();
