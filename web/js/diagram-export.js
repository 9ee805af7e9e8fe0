// Pictures of a position for sharing or printing: the server draws the SVG (docs/API.md,
// "Pictures of a position"), a PNG is that SVG drawn on a canvas at twice its size, and either
// is saved as a file. The game page asks for a game's position; a page holding a position
// string (an analysis board) asks with `positionDiagramUrl` and the same functions.

import { getText } from './api.js';
import { saveFile } from './save-file.js';

/**
 * The viewer's choices as a query: `seat` at the bottom (the first seat when absent),
 * `coordinates` (cell names, on unless false) and `pieces` ('letters' or 'kanji').
 */
function choices({ seat, coordinates = true, pieces = 'letters' } = {}) {
  const query = new URLSearchParams();
  if (seat) query.set('seat', seat);
  if (!coordinates) query.set('coordinates', 'off');
  if (pieces && pieces !== 'letters') query.set('pieces', pieces);
  return query;
}

/** The picture of game `gameId` after move `ply` (0: the start), that move marked. */
export function gameDiagramUrl(gameId, ply, options = {}) {
  const query = choices(options).toString();
  return `/api/games/${encodeURIComponent(gameId)}/positions/${ply}/diagram.svg${query ? `?${query}` : ''}`;
}

/** The picture of a position string; `last`, the move that led to it (move text), is marked. */
export function positionDiagramUrl(position, { last, ...options } = {}) {
  const query = choices(options);
  query.set('position', position);
  if (last) query.set('last', last);
  return `/api/diagram.svg?${query}`;
}

/** The SVG text at `url`; throws with the server's reason. Never cached: a takeback can
 *  change a game's position at a ply. */
export function fetchDiagram(url) {
  return getText(url, { live: true });
}

/** The picture's size in CSS pixels, from its root's `width` and `height`. */
function svgSize(svgText) {
  const root = new DOMParser().parseFromString(svgText, 'image/svg+xml').documentElement;
  const width = parseFloat(root.getAttribute('width'));
  const height = parseFloat(root.getAttribute('height'));
  if (!(width > 0 && height > 0)) throw new Error('the picture has no size');
  return { width, height };
}

/** The SVG drawn as a PNG, `scale` times its size (2: sharp on a phone and in print). */
export async function svgToPng(svgText, scale = 2) {
  const { width, height } = svgSize(svgText);
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the browser could not make a PNG'))), 'image/png');
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Fetches the picture at `url` and saves it as `${basename}.svg`, or drawn as `.png`. */
export async function downloadDiagram(url, basename, format = 'svg') {
  const svg = await fetchDiagram(url);
  const blob = format === 'png' ? await svgToPng(svg) : new Blob([svg], { type: 'image/svg+xml' });
  saveFile(blob, `${basename}.${format}`);
}
