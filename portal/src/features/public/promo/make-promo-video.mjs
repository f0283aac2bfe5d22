#!/usr/bin/env node
/**
 * Makes the landing page's promo video (portal/public/media/waymark-intro.webm), its English captions
 * (.en.vtt) and its poster (.svg) from the storyboard below: Chromium draws each scene on a canvas and
 * records it with MediaRecorder (VP9), so no video tool is needed. Re-run after changing the storyboard:
 *   node portal/src/features/public/promo/make-promo-video.mjs
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

const out = new URL('../../../../public/media/', import.meta.url).pathname;

/** Each scene: seconds on screen, title, line, and the picture drawn beside it. */
export const STORYBOARD = [
  { seconds: 4, title: 'Waymark', line: 'Learn with a map. Prove it with awards.', picture: 'logo' },
  {
    seconds: 5,
    title: 'Pick a roadmap',
    line: 'Curated videos and articles, in the order that makes sense.',
    picture: 'cards',
  },
  {
    seconds: 5,
    title: 'Learn at your pace',
    line: 'The extension measures your time on your resources.',
    picture: 'clock',
  },
  {
    seconds: 5,
    title: 'Take assessments',
    line: 'After a resource, a section or the whole roadmap.',
    picture: 'checks',
  },
  {
    seconds: 5,
    title: 'Earn awards',
    line: 'Feathers, badges and certificates to share on LinkedIn.',
    picture: 'awards',
  },
  { seconds: 4, title: 'Start free today', line: 'waymark · GET STARTED', picture: 'logo' },
];

const vttTime = (s) =>
  `00:${String(Math.floor(s / 60)).padStart(2, '0')}:${(s % 60).toFixed(3).padStart(6, '0')}`;

function captions() {
  let t = 0;
  const cues = STORYBOARD.map((scene, i) => {
    const cue = `${i + 1}\n${vttTime(t)} --> ${vttTime(t + scene.seconds)}\n${scene.title}: ${scene.line}\n`;
    t += scene.seconds;
    return cue;
  });
  return `WEBVTT\n\n${cues.join('\n')}`;
}

function poster() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 540" width="960" height="540">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e1b4b"/><stop offset="1" stop-color="#3730a3"/></linearGradient></defs>
  <rect width="960" height="540" fill="url(#g)"/>
  <rect x="80" y="170" width="96" height="96" rx="22" fill="#fff"/>
  <path d="M100 196l14 48 14-34 14 34 14-48" fill="none" stroke="#3730a3" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>
  <text x="200" y="240" font-family="system-ui, sans-serif" font-size="64" font-weight="700" fill="#fff">Waymark</text>
  <text x="80" y="330" font-family="system-ui, sans-serif" font-size="34" fill="#c7d2fe">Learn with a map. Prove it with awards.</text>
  <circle cx="820" cy="420" r="46" fill="#fff" opacity=".95"/><path d="M806 396v48l40-24z" fill="#3730a3"/>
</svg>\n`;
}

/*
 * The drawing and the recording run in Chromium: the functions from here to `record` are sent to the page
 * as the source of a script (BROWSER_SCRIPT), so they use nothing of this module but each other, W and H.
 */
const W = 960;
const H = 540;

function ease(x) {
  return 1 - (1 - Math.min(1, Math.max(0, x))) ** 3;
}

function font(size, weight = 400) {
  return `${weight} ${size}px system-ui, "DejaVu Sans", sans-serif`;
}

function background(ctx) {
  const g = ctx.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, '#1e1b4b');
  g.addColorStop(1, '#3730a3');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
}

function logo(ctx, x, y, s) {
  ctx.fillStyle = '#fff';
  ctx.beginPath();
  ctx.roundRect(x, y, s, s, s * 0.23);
  ctx.fill();
  ctx.strokeStyle = '#3730a3';
  ctx.lineWidth = s * 0.1;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(x + s * 0.2, y + s * 0.27);
  ctx.lineTo(x + s * 0.35, y + s * 0.77);
  ctx.lineTo(x + s * 0.5, y + s * 0.42);
  ctx.lineTo(x + s * 0.65, y + s * 0.77);
  ctx.lineTo(x + s * 0.8, y + s * 0.27);
  ctx.stroke();
}

/** Three roadmap cards sliding up one after the other. */
function drawCards(ctx, p) {
  for (let i = 0; i < 3; i++) {
    const q = ease(p * 2 - i * 0.25);
    ctx.fillStyle = '#fff';
    ctx.beginPath();
    ctx.roundRect(560 + i * 30, 130 + i * 40 + (1 - q) * 60, 220, 150, 14);
    ctx.fill();
    ctx.fillStyle = ['#c7d2fe', '#99f6e4', '#fde68a'][i];
    ctx.fillRect(560 + i * 30, 130 + i * 40 + (1 - q) * 60, 220, 70);
  }
}

/** A clock whose ring fills as the minutes count up to 45. */
function drawClock(ctx, p, cx, cy) {
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 10;
  ctx.beginPath();
  ctx.arc(cx, cy - 20, 100, 0, Math.PI * 2);
  ctx.stroke();
  ctx.strokeStyle = '#5eead4';
  ctx.beginPath();
  ctx.arc(cx, cy - 20, 100, -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * ease(p));
  ctx.stroke();
  ctx.fillStyle = '#fff';
  ctx.font = font(40, 700);
  ctx.textAlign = 'center';
  ctx.fillText(`${Math.round(ease(p) * 45)} min`, cx, cy - 6);
}

/** Three answers ticked one after the other. */
function drawChecks(ctx, p) {
  for (let i = 0; i < 3; i++) {
    const q = ease(p * 2.2 - i * 0.35);
    ctx.fillStyle = '#fff';
    ctx.beginPath();
    ctx.roundRect(580, 140 + i * 90, 240, 64, 12);
    ctx.fill();
    ctx.strokeStyle = '#15803d';
    ctx.lineWidth = 8;
    ctx.beginPath();
    ctx.moveTo(600, 172 + i * 90);
    ctx.lineTo(600 + 12 * q, 172 + i * 90 + 12 * q);
    if (q > 0.5) ctx.lineTo(600 + 12 + 22 * (q - 0.5) * 2, 184 + i * 90 - 24 * (q - 0.5) * 2);
    ctx.stroke();
    ctx.fillStyle = '#e5e7eb';
    ctx.fillRect(650, 166 + i * 90, 140 * q, 14);
  }
}

/** The feather, the badge and the certificate growing in turn, each with its name. */
function drawAwards(ctx, p, cy) {
  const colours = ['#5eead4', '#fde68a', '#fca5a5'];
  const labels = ['Feather', 'Badge', 'Certificate'];
  for (let i = 0; i < 3; i++) {
    const q = ease(p * 2.4 - i * 0.3);
    ctx.fillStyle = colours[i];
    ctx.beginPath();
    ctx.arc(590 + i * 110, cy - 20, 44 * q, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#fff';
    ctx.font = font(20, 600);
    ctx.textAlign = 'center';
    ctx.fillText(labels[i], 590 + i * 110, cy + 60);
  }
}

/** The scene's picture on the right, fading in; `p` is how far through the scene (0 to 1). */
function picture(ctx, kind, p) {
  const cx = 700;
  const cy = 270;
  ctx.save();
  ctx.globalAlpha = ease(p * 2);
  if (kind === 'logo') logo(ctx, cx - 80, cy - 80, 160);
  if (kind === 'cards') drawCards(ctx, p);
  if (kind === 'clock') drawClock(ctx, p, cx, cy);
  if (kind === 'checks') drawChecks(ctx, p);
  if (kind === 'awards') drawAwards(ctx, p, cy);
  ctx.restore();
}

/** Writes `text` from (x, y) in lines no wider than 430 px, 38 px apart. */
function wrapText(ctx, text, x, y) {
  let line = '';
  for (const w of text.split(' ')) {
    if (ctx.measureText(`${line}${w} `).width > 430) {
      ctx.fillText(line, x, y);
      line = '';
      y += 38;
    }
    line += `${w} `;
  }
  ctx.fillText(line, x, y);
}

/** One frame of a scene: the step, its title and line on the left, its picture on the right. */
function frame(ctx, storyboard, scene, p, index) {
  background(ctx);
  ctx.textAlign = 'left';
  ctx.fillStyle = '#c7d2fe';
  ctx.font = font(22, 600);
  if (index > 0 && index < storyboard.length - 1)
    ctx.fillText(`Step ${index} of ${storyboard.length - 2}`, 70, 170);
  ctx.fillStyle = '#fff';
  ctx.globalAlpha = ease(p * 3);
  ctx.font = font(index === 0 ? 64 : 48, 700);
  ctx.fillText(scene.title, 70, 240);
  ctx.font = font(26);
  ctx.fillStyle = '#e0e7ff';
  wrapText(ctx, scene.line, 70, 300);
  ctx.globalAlpha = 1;
  picture(ctx, scene.picture, p);
}

/** Draws the storyboard's scenes in real time, a frame per animation frame, until its length has passed. */
function playScenes(ctx, storyboard, total) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    function tick() {
      const t = performance.now() - t0;
      if (t >= total) return resolve();
      let acc = 0;
      for (let i = 0; i < storyboard.length; i++) {
        const len = storyboard[i].seconds * 1000;
        if (t < acc + len) {
          frame(ctx, storyboard, storyboard[i], (t - acc) / len, i);
          break;
        }
        acc += len;
      }
      requestAnimationFrame(tick);
    }
    tick();
  });
}

async function base64Of(blob) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Records the storyboard drawn on a canvas with MediaRecorder (VP9); the WebM as base64. */
async function recordStoryboard(storyboard) {
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  document.body.append(canvas);
  const ctx = canvas.getContext('2d');
  const stream = canvas.captureStream(30);
  const recorder = new MediaRecorder(stream, {
    mimeType: 'video/webm;codecs=vp9',
    videoBitsPerSecond: 110_000,
  });
  const chunks = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  const total = storyboard.reduce((s, x) => s + x.seconds, 0) * 1000;
  const done = new Promise((resolve) => {
    recorder.onstop = resolve;
  });
  frame(ctx, storyboard, storyboard[0], 0, 0);
  recorder.start(1000);
  await playScenes(ctx, storyboard, total);
  recorder.stop();
  await done;
  return base64Of(new Blob(chunks, { type: 'video/webm' }));
}

const BROWSER_SCRIPT = [
  `const W = ${W};`,
  `const H = ${H};`,
  ...[ease, font, background, logo, drawCards, drawClock, drawChecks, drawAwards, picture, wrapText],
  ...[frame, playScenes, base64Of, recordStoryboard],
].join('\n');

async function record() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  });
  const page = await browser.newPage();
  await page.addScriptTag({ content: BROWSER_SCRIPT });
  const base64 = await page.evaluate(`recordStoryboard(${JSON.stringify(STORYBOARD)})`);
  await browser.close();
  return Buffer.from(base64, 'base64');
}

/**
 * MediaRecorder writes WebM without a duration, so players cannot show the length or seek well: add a
 * Duration element (in milliseconds, the default timecode scale) to the Segment's Info.
 */
export function withDuration(webm, milliseconds) {
  const vint = (pos) => {
    let len = 1;
    let mask = 0x80;
    while (len <= 8 && !(webm[pos] & mask)) {
      len++;
      mask >>= 1;
    }
    let value = webm[pos] & (mask - 1);
    for (let i = 1; i < len; i++) value = value * 256 + webm[pos + i];
    return { len, value };
  };
  const idAt = (pos) => {
    const { len } = vint(pos);
    return { len, id: webm.readUIntBE(pos, len) };
  };
  let pos = 0;
  const header = idAt(pos);
  const headerSize = vint(pos + header.len);
  pos += header.len + headerSize.len + headerSize.value;
  const segment = idAt(pos);
  if (segment.id !== 0x18538067) throw new Error('no Segment');
  pos += segment.len + vint(pos + segment.len).len;
  while (pos < webm.length) {
    const el = idAt(pos);
    const size = vint(pos + el.len);
    const dataStart = pos + el.len + size.len;
    if (el.id === 0x1549a966) {
      const duration = Buffer.alloc(11);
      duration.writeUInt16BE(0x4489, 0);
      duration[2] = 0x88;
      duration.writeDoubleBE(milliseconds, 3);
      const info = Buffer.concat([webm.subarray(dataStart, dataStart + size.value), duration]);
      const newSize = Buffer.alloc(8);
      newSize[0] = 0x01;
      newSize.writeUIntBE(info.length, 2, 6);
      return Buffer.concat([
        webm.subarray(0, pos + el.len),
        newSize,
        info,
        webm.subarray(dataStart + size.value),
      ]);
    }
    pos = dataStart + size.value;
  }
  throw new Error('no Info in the Segment');
}

const totalMs = STORYBOARD.reduce((s, x) => s + x.seconds, 0) * 1000;
const video = withDuration(await record(), totalMs);
writeFileSync(join(out, 'waymark-intro.webm'), video);
writeFileSync(join(out, 'waymark-intro.en.vtt'), captions());
writeFileSync(join(out, 'waymark-intro-poster.svg'), poster());
console.log(
  `waymark-intro.webm ${(video.length / 1024).toFixed(0)} KB, captions and poster written to ${out}`,
);
