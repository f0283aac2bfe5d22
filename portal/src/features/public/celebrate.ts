/**
 * The celebration of a freshly assigned roadmap (mentor §2.12): confetti (none for people who prefer
 * reduced motion) and a short chime made with the Web Audio API (no audio file to load).
 */
import confettiLib from 'canvas-confetti';
import { prefersReducedMotion } from '../../layout/PublicChrome';

/**
 * canvas-confetti's default cannon draws in a Worker made from a blob: URL, which the portal's Content
 * Security Policy (script-src 'self') blocks — silently, so nothing was drawn. This cannon draws on the
 * main thread, on a canvas of its own that covers the page, is hidden from assistive technology (it is
 * decoration, outside every landmark) and is removed once the confetti has fallen.
 */
const CONFETTI_MS = 4000;
let canvas: HTMLCanvasElement | null = null;
let cannon: confettiLib.CreateTypes | null = null;
let removal = 0;
const confetti = (options: confettiLib.Options) => {
  if (!canvas || !cannon) {
    canvas = document.createElement('canvas');
    canvas.setAttribute('aria-hidden', 'true');
    canvas.className = 'confetti';
    Object.assign(canvas.style, {
      position: 'fixed',
      inset: '0',
      width: '100%',
      height: '100%',
      pointerEvents: 'none',
      zIndex: '1000',
    });
    document.body.append(canvas);
    cannon = confettiLib.create(canvas, { resize: true, useWorker: false, disableForReducedMotion: true });
  }
  window.clearTimeout(removal);
  removal = window.setTimeout(() => {
    cannon?.reset();
    canvas?.remove();
    canvas = null;
    cannon = null;
  }, CONFETTI_MS);
  return cannon(options);
};

export function throwConfetti(): boolean {
  if (prefersReducedMotion()) return false;
  const colors = ['#3730a3', '#0f766e', '#f59e0b', '#e11d48', '#6366f1'];
  void confetti({
    particleCount: 90,
    spread: 70,
    origin: { y: 0.35 },
    colors,
    disableForReducedMotion: true,
  });
  setTimeout(() => {
    void confetti({ particleCount: 60, angle: 60, spread: 55, origin: { x: 0, y: 0.5 }, colors });
    void confetti({ particleCount: 60, angle: 120, spread: 55, origin: { x: 1, y: 0.5 }, colors });
  }, 250);
  return true;
}

/** A rising three-note chime, about 0.8 s, quiet. Browsers allow it only after the visitor has interacted. */
export function playChime(): boolean {
  const Ctx =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return false;
  const activated = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
  if (activated && !activated.hasBeenActive) return false;
  try {
    const ctx = new Ctx();
    const start = ctx.currentTime + 0.05;
    const notes = [523.25, 659.25, 783.99]; // C5, E5, G5
    notes.forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const at = start + i * 0.14;
      osc.type = 'sine';
      osc.frequency.setValueAtTime(freq, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.12, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.5);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.55);
    });
    setTimeout(() => void ctx.close(), 1500);
    return true;
  } catch {
    return false;
  }
}
