/**
 * The playground's script (dist/widgets/playground.js, served at /widgets/playground): every element of
 * custom-elements.json with its attributes, design tokens, theme and slots as a form, the element itself
 * live beside it, the events it fires, and its snippet — the release's files pinned with their SRI hashes
 * (manifest.json) and the element as set — to copy. The page's address keeps the choices
 * (`?element=wm-award&link-id=…`), so a link can open it ready (the portal's sandbox page does).
 */
const base = new URL('./', import.meta.url);
const $ = (id) => document.getElementById(id);
const params = new URL(window.location.href).searchParams;

const [manifest, cem] = await Promise.all([
  fetch(new URL('manifest.json', base)).then((r) => r.json()),
  fetch(new URL('custom-elements.json', base)).then((r) => r.json()),
]);
const elements = cem.modules.flatMap((m) => m.declarations.filter((d) => d.customElement));
$('release').textContent = `release ${manifest.version}`;

/** The values a type such as `'light' | 'dark'` allows; none for free text. */
const valuesOf = (type) => [...(type ?? '').matchAll(/'([^']*)'/g)].map((m) => m[1]);

/** A first value that shows something, where the element needs one (the first roadmap of the catalogue). */
async function exampleValue(attribute) {
  if (attribute === 'roadmap-id') {
    const body = await fetch(new URL('/api/roadmap/list/no-auth', base))
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
    return body?.data?.[0]?._id ?? '';
  }
  return '';
}

const select = $('element');
for (const el of elements) select.append(new Option(`<${el.tagName}>`, el.tagName));
select.value = elements.some((e) => e.tagName === params.get('element'))
  ? params.get('element')
  : elements[0].tagName;

let current = null;

/** The inputs of one group, each labelled; `kind` decides how a change applies. */
function field(container, { id, label, hint, values, value, placeholder, kind, name }) {
  const p = document.createElement('p');
  p.className = 'pg-field';
  const l = document.createElement('label');
  l.htmlFor = id;
  l.textContent = label;
  p.append(l);
  let input;
  if (values.length) {
    input = document.createElement('select');
    input.append(new Option('(default)', ''));
    for (const v of values) input.append(new Option(v, v));
  } else {
    input = document.createElement('input');
    input.type = 'text';
    if (placeholder) input.placeholder = placeholder;
  }
  input.id = id;
  input.value = value ?? '';
  input.dataset.kind = kind;
  input.dataset.name = name;
  if (hint) {
    const h = document.createElement('span');
    h.className = 'pg-hint';
    h.id = `${id}-hint`;
    h.textContent = hint;
    input.setAttribute('aria-describedby', h.id);
    p.append(input, h);
  } else p.append(input);
  container.append(p);
}

async function choose(tag) {
  const el = elements.find((e) => e.tagName === tag);
  const entry = manifest.elements.find((e) => e.tag === tag);
  current = { el, entry };
  $('summary').textContent = el.summary ?? '';
  for (const id of ['attributes', 'tokens', 'slots']) $(id).replaceChildren();
  for (const a of el.attributes ?? []) {
    if (a.name === 'theme') continue;
    const given = params.get('element') === tag ? params.get(a.name) : null;
    field($('attributes'), {
      id: `attr-${a.name}`,
      label: a.name,
      hint: a.description,
      values: valuesOf(a.type?.text),
      value: given ?? (await exampleValue(a.name)),
      kind: 'attribute',
      name: a.name,
    });
  }
  for (const p of el.cssProperties ?? []) {
    field($('tokens'), {
      id: `token-${p.name}`,
      label: p.name,
      hint: p.description,
      values: [],
      value: '',
      placeholder: p.default ?? '',
      kind: 'token',
      name: p.name,
    });
  }
  if (!(el.slots ?? []).length) {
    const none = document.createElement('p');
    none.className = 'pg-hint';
    none.textContent = 'This element has no slots.';
    $('slots').append(none);
  }
  for (const s of el.slots ?? []) {
    field($('slots'), {
      id: `slot-${s.name}`,
      label: s.name,
      hint: s.description,
      values: [],
      value: '',
      kind: 'slot',
      name: s.name,
    });
  }
  $('theme').value = params.get('theme') ?? '';
  // the element's files: its own and what it imports, loaded once
  await import(new URL(entry.file, base).href);
  render();
}

/** The element as the form says, in the preview (changed in place, as a page would); the snippet beside it. */
function render() {
  const { el, entry } = current;
  let node = $('preview').firstElementChild;
  if (node?.localName !== el.tagName) {
    node = document.createElement(el.tagName);
    $('preview').replaceChildren(node);
  }
  const attributes = [];
  const wanted = new Map();
  for (const input of document.querySelectorAll('[data-kind="attribute"]')) {
    if (input.value !== '') wanted.set(input.dataset.name, input.value);
  }
  if ($('theme').value) wanted.set('theme', $('theme').value);
  for (const name of node.getAttributeNames())
    if (!wanted.has(name) && name !== 'style') node.removeAttribute(name);
  for (const [name, value] of wanted) {
    if (node.getAttribute(name) !== value) node.setAttribute(name, value);
    attributes.push([name, value]);
  }
  const tokens = [];
  for (const input of document.querySelectorAll('[data-kind="token"]')) {
    // CSSOM, as a page's stylesheet would set it: no style attribute in markup (a strict policy refuses those)
    if (input.value.trim()) {
      node.style.setProperty(input.dataset.name, input.value.trim());
      tokens.push([input.dataset.name, input.value.trim()]);
    } else node.style.removeProperty(input.dataset.name);
  }
  const slots = [];
  node.replaceChildren();
  for (const input of document.querySelectorAll('[data-kind="slot"]')) {
    if (input.value.trim()) {
      const span = document.createElement('span');
      span.slot = input.dataset.name;
      span.textContent = input.value.trim();
      node.append(span);
      slots.push([input.dataset.name, input.value.trim()]);
    }
  }
  $('preview').dataset.page = $('page').value;

  const html = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const open = `<${el.tagName}${attributes.map(([n, v]) => ` ${n}="${html(v)}"`).join('')}>`;
  const inner = slots.map(([n, v]) => `\n  <span slot="${n}">${html(v)}</span>`).join('');
  $('snippet').value = `${entry.snippet}\n${open}${inner}${inner ? '\n' : ''}</${el.tagName}>`;
  $('css').value = tokens.length
    ? `${el.tagName} {\n${tokens.map(([n, v]) => `  ${n}: ${v};`).join('\n')}\n}`
    : '/* no token changed: the defaults */';
  const url = new URL(window.location.href);
  url.search = new URLSearchParams([['element', el.tagName], ...attributes]).toString();
  window.history.replaceState(null, '', url);
}

// every wm-* event of the element shown: its name and detail; a cancelable one is cancelled, so the
// playground stays (what a partner does to keep the visitor on the page)
const EVENTS = [...new Set(elements.flatMap((e) => (e.events ?? []).map((ev) => ev.name)))];
for (const type of EVENTS) {
  $('preview').addEventListener(type, (e) => {
    const item = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = type;
    item.append(code, ` ${JSON.stringify(e.detail)}`);
    if (e.cancelable) {
      e.preventDefault();
      item.append(' (cancelled by the playground)');
    }
    $('events').append(item);
  });
}
$('clear-events').addEventListener('click', () => $('events').replaceChildren());

$('controls').addEventListener('submit', (e) => e.preventDefault());
$('controls').addEventListener('change', (e) => {
  if (e.target === select) {
    $('events').replaceChildren();
    $('preview').replaceChildren();
    void choose(select.value);
  } else render();
});

async function copy(id, what) {
  try {
    await navigator.clipboard.writeText($(id).value);
    $('copy-status').textContent = `${what} copied.`;
  } catch {
    $('copy-status').textContent = `Select the ${what} and copy it.`;
    $(id).select();
  }
}
$('copy-snippet').addEventListener('click', () => void copy('snippet', 'HTML'));
$('copy-css').addEventListener('click', () => void copy('css', 'CSS'));

await choose(select.value);
