// Short sounds made with the Web Audio API. Off until the player turns them on in the
// settings (settings-panel.js keeps the choice); the audio context is only created by
// that click (`wake`) or by the first sound played, never at page load.

/** @type {AudioContext | null} */
let ctx = null;
let enabled = false;

/**
 * @param {unknown} on
 * @param {{ wake?: boolean }} [options] wake: create the audio context now (a click)
 */
export function setSound(on, { wake = true } = {}) {
  enabled = Boolean(on);
  if (enabled && wake) ensureContext();
}

/** @returns {AudioContext | null} */
function ensureContext() {
  if (!ctx) {
    // older Safari has only the prefixed constructor
    const w = /** @type {typeof globalThis & { webkitAudioContext?: typeof AudioContext }} */ (window);
    const Ctor = w.AudioContext || w.webkitAudioContext;
    if (!Ctor) return null;
    try { ctx = new Ctor(); } catch { return null; }
  }
  const made = ctx;
  if (made.state === 'suspended') made.resume().catch(() => {});
  return made;
}

/**
 * @param {number} freq
 * @param {number} start
 * @param {number} duration
 * @param {{ type?: OscillatorType, gain?: number, slide?: number | null }} [options]
 */
function tone(freq, start, duration, { type = 'sine', gain = 0.12, slide = null } = {}) {
  const c = /** @type {AudioContext} */ (ctx); // play() made it first
  const osc = c.createOscillator();
  const amp = c.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, c.currentTime + start);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, c.currentTime + start + duration);
  amp.gain.setValueAtTime(0.0001, c.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(gain, c.currentTime + start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, c.currentTime + start + duration);
  osc.connect(amp).connect(c.destination);
  osc.start(c.currentTime + start);
  osc.stop(c.currentTime + start + duration + 0.02);
}

/**
 * @param {number} start
 * @param {number} duration
 * @param {number} [gain]
 */
function noise(start, duration, gain = 0.08) {
  const c = /** @type {AudioContext} */ (ctx); // play() made it first
  const length = Math.floor(c.sampleRate * duration);
  const buffer = c.createBuffer(1, length, c.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const src = c.createBufferSource();
  const amp = c.createGain();
  const filter = c.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 2400;
  amp.gain.value = gain;
  src.buffer = buffer;
  src.connect(filter).connect(amp).connect(c.destination);
  src.start(c.currentTime + start);
}

const SOUNDS = {
  place: () => { noise(0, 0.06, 0.16); tone(520, 0, 0.07, { gain: 0.05 }); },
  draw: () => { noise(0, 0.05, 0.1); noise(0.05, 0.05, 0.08); noise(0.1, 0.05, 0.06); },
  other: () => { noise(0, 0.05, 0.06); },
  bad: () => { tone(180, 0, 0.18, { type: 'square', gain: 0.05, slide: 120 }); },
  tick: () => { tone(880, 0, 0.08, { gain: 0.08 }); },
  go: () => { tone(1320, 0, 0.18, { gain: 0.09 }); },
  select: () => { tone(660, 0, 0.04, { gain: 0.04 }); },
  win: () => { [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.09, 0.22, { type: 'triangle', gain: 0.1 })); },
  end: () => { [392, 330, 262].forEach((f, i) => tone(f, i * 0.1, 0.2, { type: 'triangle', gain: 0.08 })); },
};

/** @typedef {keyof typeof SOUNDS} SoundName */

/** @param {SoundName} name */
export function play(name) {
  if (!enabled || !SOUNDS[name]) return;
  if (!ensureContext()) return;
  try { SOUNDS[name](); } catch { /* a sound is never worth an error */ }
}
