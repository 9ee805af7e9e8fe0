// The sounds of the game, made with the Web Audio API (no sound files): a move, a capture, a
// check, the end of the game, an offer to answer. Muting is remembered in localStorage; sounds
// are on by default. Each sound asked for is noted on <body> (data-sound, data-sound-count), so
// that tests can see which one was played.

const MUTE_KEY = 'polyshogi.muted';

/** Each kind as notes: [frequency Hz, start s, length s, wave, volume]. */
const SOUNDS = {
  move: [[420, 0, 0.07, 'triangle', 0.35]],
  capture: [[300, 0, 0.06, 'square', 0.18], [190, 0.05, 0.1, 'triangle', 0.35]],
  check: [[660, 0, 0.1, 'sawtooth', 0.12], [880, 0.11, 0.14, 'sawtooth', 0.12]],
  // Another player offers something to answer (a rematch): a soft rising call.
  offer: [[587, 0, 0.12, 'sine', 0.25], [880, 0.13, 0.22, 'sine', 0.25]],
  end: [[523, 0, 0.16, 'sine', 0.3], [659, 0.16, 0.16, 'sine', 0.3], [784, 0.32, 0.32, 'sine', 0.3]],
};

let audio = null;
let count = 0;

export function isMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

export function setMuted(muted) {
  try {
    localStorage.setItem(MUTE_KEY, muted ? '1' : '0');
  } catch { /* not remembered past this page */ }
}

/** Plays a sound of `kind` (a key of SOUNDS) unless muted. */
export function playSound(kind) {
  if (isMuted() || !SOUNDS[kind]) return;
  count += 1;
  document.body.dataset.sound = kind;
  document.body.dataset.soundCount = String(count);
  try {
    audio = audio || new AudioContext();
    // A page may not start sound before the reader touched it; the context then stays silent.
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const t0 = audio.currentTime;
    for (const [freq, start, length, wave, volume] of SOUNDS[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(volume, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + length);
    }
  } catch { /* no Web Audio here: silence */ }
}

/** The sound a newly shown move calls for: the end of the game, a check, a capture, a move. */
export function soundFor({ ended, check, capture }) {
  if (ended) return 'end';
  if (check) return 'check';
  return capture ? 'capture' : 'move';
}
