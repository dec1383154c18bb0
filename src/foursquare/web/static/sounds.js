// @ts-check
// Sound effects, when the settings turn them on (preferences.js): a card placed, a card turned over, a game won.
// Each is synthesized with the Web Audio API (a few short tones), so there is no audio file to ship. Where audio is
// unavailable (no AudioContext, or the browser refuses one) the page stays silent and carries on.
// view.js tells what it draws (soundsFor): a card placed by the player, drawn at once (before the server's answer
// when the page foresees it), and the game's end.

import { soundOn } from "./preferences.js";

/**
 * A tone: `frequency` in Hz (gliding to `to`), starting `delay` seconds from now, `length` seconds long.
 * @typedef {{frequency: number, to?: number, delay?: number, length: number, wave: OscillatorType, volume: number}} Tone
 */

/** @type {Record<"place" | "flip" | "won", Tone[]>} */
const SOUNDS = {
  // A soft knock: a low triangle falling an octave.
  place: [{ frequency: 196, to: 98, length: 0.09, wave: "triangle", volume: 0.32 }],
  // A flick: a quick rise, just after the knock.
  flip: [{ frequency: 587.33, to: 987.77, delay: 0.1, length: 0.08, wave: "sine", volume: 0.14 }],
  // C E G C, rising.
  won: [523.25, 659.25, 783.99, 1046.5].map((frequency, index) => ({
    frequency,
    delay: 0.12 * index,
    length: index === 3 ? 0.5 : 0.2,
    wave: /** @type {OscillatorType} */ ("triangle"),
    volume: 0.22,
  })),
};

/** @type {AudioContext | null} */
let context = null;
let unavailable = false;

/** The page's audio context, made at the first sound (after a tap: browsers let a page sound only then); or null. */
function audio() {
  if (unavailable) return null;
  if (context === null) {
    const Context = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
    if (typeof Context !== "function") {
      unavailable = true;
      return null;
    }
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/**
 * @param {AudioContext} audio
 * @param {Tone} tone
 */
function playTone(audio, tone) {
  const start = audio.currentTime + (tone.delay ?? 0);
  const end = start + tone.length;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = tone.wave;
  oscillator.frequency.value = tone.frequency;
  oscillator.frequency.setValueAtTime(tone.frequency, start);
  if (tone.to) oscillator.frequency.exponentialRampToValueAtTime(tone.to, end);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(tone.volume, start + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, end);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(start);
  oscillator.stop(end + 0.02);
}

/**
 * Play a sound, if the player turned sounds on; never throws.
 * @param {keyof typeof SOUNDS} name
 */
export function play(name) {
  if (!soundOn()) return;
  try {
    const ready = audio();
    if (ready) for (const tone of SOUNDS[name]) playTone(ready, tone);
  } catch {
    unavailable = context === null; // no context could be made: stay silent from now on
  }
}

/** @typedef {import("./api.js").GameState} GameState */

/** @type {{id: string, turn: number, faces: Map<string, string>} | null} the position drawn last */
let drawn = null;

/**
 * The sounds of what view.js draws: `state`, and `change`, what the last request did (placed: a card the player
 * placed; justEnded: the game just ended). A card placed knocks; a card it turned over flicks; a win plays its chord.
 * @param {Pick<GameState, "id" | "turn" | "cells" | "outcome">} state
 * @param {{placed?: {row: number, col: number} | null, justEnded?: boolean}} change
 */
export function soundsFor(state, change) {
  const before = drawn;
  const faces = new Map(state.cells.map((cell) => [`${cell.row} ${cell.col}`, `${cell.card} ${cell.face_up}`]));
  drawn = { id: state.id, turn: state.turn, faces };
  if (change.placed && before && before.id === state.id && state.turn === before.turn + 1) {
    play("place");
    // A card turned over: the same card on top of its pile, the other face up.
    const turned = [...faces].some(([key, face]) => {
      const was = before.faces.get(key);
      return was !== undefined && was !== face && was.split(" ")[0] === face.split(" ")[0];
    });
    if (turned) play("flip");
  }
  if (change.justEnded && state.outcome === "won") play("won");
}
