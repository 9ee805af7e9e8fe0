// A game's rules page (/rules/{variant}): its rule options with their explanations, a diagram
// of each piece's moves drawn on the game's own board layout from the moves the rules compute
// (GET /api/variants/{name}/pieces), and the guide for players rendered from its Markdown.

import { getJSON, getText } from './api.js';
import { renderMarkdown } from './markdown.js';
import { valueWords } from './rule-words.js';
import { initAccountBar } from './account.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const ROOT3 = Math.sqrt(3);

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** The outline of a layout cell: a hexagon with a corner up (circumradius 1), or a triangle of
 *  side 2 whose centroid is (x, y), as docs/API.md describes the layout. */
function outline(cell) {
  const { x, y } = cell;
  let corners;
  if (cell.shape === 'hexagon') {
    corners = [0, 1, 2, 3, 4, 5].map((k) => {
      const a = (Math.PI / 3) * k - Math.PI / 2;
      return [x + Math.cos(a), y + Math.sin(a)];
    });
  } else {
    const up = cell.shape === 'triangle_up' ? 1 : -1;
    corners = [[x, y - up * (2 * ROOT3) / 3], [x + 1, y + up * ROOT3 / 3], [x - 1, y + up * ROOT3 / 3]];
  }
  return corners.map(([a, b]) => `${a.toFixed(3)},${b.toFixed(3)}`).join(' ');
}

/** One piece's diagram: the whole board, its cell, and the cells it reaches. */
function diagram(layout, piece) {
  const xs = layout.cells.map((c) => c.x);
  const ys = layout.cells.map((c) => c.y);
  const pad = 1.4;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const reach = new Set(piece.reach);
  const root = svg('svg', { viewBox: box.map((v) => v.toFixed(2)).join(' '), role: 'img', class: 'piece-diagram' });
  root.setAttribute('aria-label', `${piece.name}: moves from ${piece.from} to ${piece.reach.join(', ')}`);
  for (const cell of layout.cells) {
    const kind = cell.name === piece.from ? 'from' : reach.has(cell.name) ? 'reach' : 'empty';
    const poly = svg('polygon', { points: outline(cell), class: `cell ${kind}` });
    poly.dataset.cell = cell.name;
    poly.dataset.kind = kind;
    root.append(poly);
  }
  const centre = layout.cells.find((c) => c.name === piece.from);
  if (centre) {
    const label = svg('text', { x: centre.x, y: centre.y, class: 'piece-letter', 'text-anchor': 'middle', 'dominant-baseline': 'central' });
    label.textContent = (piece.promoted ? '+' : '') + piece.letter;
    root.append(label);
  }
  return root;
}

function showPieces(layout, pieces) {
  const box = $('piece-diagrams');
  box.replaceChildren(...pieces.map((piece) => {
    const figure = document.createElement('figure');
    figure.className = 'piece-figure';
    figure.dataset.piece = (piece.promoted ? '+' : '') + piece.letter;
    figure.dataset.reach = String(piece.reach.length);
    const caption = document.createElement('figcaption');
    const name = piece.name[0].toUpperCase() + piece.name.slice(1);
    caption.textContent = `${name} (${piece.promoted ? '+' : ''}${piece.letter}) · ${piece.reach.length} cells`;
    figure.append(diagram(layout, piece), caption);
    return figure;
  }));
  $('pieces-section').hidden = false;
}

function showOptions(variant) {
  const body = $('options-table').querySelector('tbody');
  body.replaceChildren(...variant.options.map((opt) => {
    const tr = document.createElement('tr');
    tr.dataset.key = opt.key;
    for (const text of [opt.label, valueWords(opt.default), opt.explanation, opt.source]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  }));
  $('options-section').hidden = !variant.options.length;
}

async function start() {
  initAccountBar();
  const name = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
  try {
    const variants = await getJSON('/api/variants');
    const variant = variants.find((v) => v.name === name);
    if (!variant) throw new Error(`there is no game “${name}” here`);
    document.title = `polyshogi — how to play ${variant.title}`;
    $('rules-title').textContent = `How to play ${variant.title}`;
    const [layout, pieces, text] = await Promise.all([
      getJSON(`/api/variants/${encodeURIComponent(name)}/layout`),
      getJSON(`/api/variants/${encodeURIComponent(name)}/pieces`),
      getText(`/api/variants/${encodeURIComponent(name)}/rules`),
    ]);
    showOptions(variant);
    showPieces(layout, pieces);
    // The guide's own title repeats the page's: it is left out.
    $('rules-text').replaceChildren(renderMarkdown(text.replace(/^# .*\n/, '')));
    $('rules-status').textContent = '';
    $('rules-status').hidden = true;
    document.body.dataset.ready = '1';
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  } catch (err) {
    $('rules-status').textContent = `The rules could not be shown: ${err.message}`;
    $('rules-status').classList.add('error');
  }
}

start();
