// The board as SVG, drawn from the server's layout (GET /api/variants/{name}/layout): one
// polygon per cell, pieces as rotated letters, the Garden marked, the whole turned so that the
// viewing seat sits at the bottom; the moves of the round marked in their seats' colours, a king
// in check, pieces sliding to their cells; arrow keys move the focus. Pieces wear letters or
// kanji (piece-set.js); a dragged piece's ghost is drawn here too.

import { pieceName } from './moves.js';
import { boardTurn } from './orientation.js';
import { pieceGlyph } from './piece-set.js';

const SVG = 'http://www.w3.org/2000/svg';
const SQRT3 = Math.sqrt(3);

/**
 * Colours of each seat's pieces (body fill, outline, letter) and of its moves on the board. The
 * two-colour armies write promoted pieces in red, as a traditional set does; the Sannin armies'
 * letters keep their seat's colour, which is what tells them apart.
 */
const SEAT_STYLES = {
  First: { fill: '#fbeccb', stroke: '#b3261e', text: '#b3261e', trail: '#d0342c' },
  Middle: { fill: '#fbeccb', stroke: '#1f4fa8', text: '#1f4fa8', trail: '#2f6fe0' },
  Last: { fill: '#fbeccb', stroke: '#1b7a3a', text: '#1b7a3a', trail: '#23a04c' },
  Black: { fill: '#2f2f2f', stroke: '#111', text: '#fff', promoted: '#ff8f85', trail: '#3a3a3a' },
  White: { fill: '#fffdf6', stroke: '#555', text: '#222', promoted: '#c0231b', trail: '#ffffff' },
  Gray: { fill: '#a3a8ad', stroke: '#4a4f55', text: '#111', promoted: '#8e0c0c', trail: '#5d6670' },
};
const FALLBACK_STYLES = [SEAT_STYLES.First, SEAT_STYLES.Middle, SEAT_STYLES.Last];

export function seatStyle(seat, index = 0) {
  return SEAT_STYLES[seat] || FALLBACK_STYLES[index % FALLBACK_STYLES.length];
}

/** The colour that stands for a seat in text (player list, move list). */
export function seatColour(seat, index = 0) {
  return seatStyle(seat, index).stroke;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

const fmt = (n) => Number(n.toFixed(4));
const pointsText = (points) => points.map(([px, py]) => `${fmt(px)},${fmt(py)}`).join(' ');

/** A layout cell as seen with the board turned `turn` degrees clockwise (y grows downward). */
function turned(cell, turn) {
  const a = (Math.PI / 180) * turn;
  const [cos, sin] = [Math.cos(a), Math.sin(a)];
  const flip = { triangle_up: 'triangle_down', triangle_down: 'triangle_up' };
  // Hexagons with a corner up stay so under turns of 60°; a half turn flips triangles.
  const shape = turn === 180 && flip[cell.shape] ? flip[cell.shape] : cell.shape;
  return { ...cell, shape, x: cell.x * cos - cell.y * sin, y: cell.x * sin + cell.y * cos };
}

/**
 * Geometry of one cell: polygon points, where a piece sits and how big it is.
 * Hexagons have circumradius 1 (corner up); triangles have side 2. For triangles the layout's
 * (x, y) is the centroid or the centre of the bounding box, as its `centre` says.
 */
function cellGeometry(cell, triangleCentroid) {
  const { x, y } = cell;
  if (cell.shape === 'triangle_up' || cell.shape === 'triangle_down') {
    const h = SQRT3;
    const up = cell.shape === 'triangle_up';
    // Apex and base heights relative to (x, y).
    const [apex, base] = triangleCentroid ? [(2 * h) / 3, h / 3] : [h / 2, h / 2];
    const pts = up
      ? [[x, y - apex], [x + 1, y + base], [x - 1, y + base]]
      : [[x - 1, y - base], [x + 1, y - base], [x, y + apex]];
    const cx = (pts[0][0] + pts[1][0] + pts[2][0]) / 3;
    const cy = (pts[0][1] + pts[1][1] + pts[2][1]) / 3;
    return { points: pts, cx, cy, scale: 0.46, labelY: up ? cy + 0.3 : cy - 0.42 };
  }
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (-90 + 60 * k);
    pts.push([x + Math.cos(a), y + Math.sin(a)]);
  }
  return { points: pts, cx: x, cy: y, scale: 0.86, labelY: y + 0.72 };
}

/** A shade index per cell so that neighbours differ (hexagons: 3 colours; triangles: up/down). */
function shadeOf(cell, origin) {
  if (cell.shape === 'triangle_up') return 0;
  if (cell.shape === 'triangle_down') return 2;
  const r = Math.round((cell.y - origin.y) / 1.5);
  const q = Math.round((cell.x - origin.x) / SQRT3 - r / 2);
  return (((q - r) % 3) + 3) % 3;
}

export class BoardView {
  /**
   * @param container element to draw into
   * @param layout the server's layout
   * @param options { variant, seats: [seat names in order], viewSeat: the seat at the bottom,
   *                  onActivate(cellName) }
   */
  constructor(container, layout, { variant, seats, viewSeat, onActivate }) {
    this.container = container;
    this.layout = layout;
    this.variant = variant;
    this.seats = seats;
    this.onActivate = onActivate;
    this.marked = new Set(layout.marked || []);
    this.focused = null;
    this.lastView = null;
    this.viewSeat = viewSeat || seats[0];
    this.build();
  }

  /** Turns the board so that `seat` sits at the bottom, and draws the last view again. */
  setViewSeat(seat) {
    if (seat === this.viewSeat) return;
    this.viewSeat = seat;
    const focused = this.focused;
    this.build();
    this.setTabStop(focused);
    if (this.lastView) this.render({ ...this.lastView, motion: null });
  }

  build() {
    this.cells = new Map();
    this.pieces = new Map();
    this.turn = boardTurn(this.layout, this.seats, this.viewSeat);
    const { cells } = this.layout;
    const centroid = this.layout.centre !== 'box';
    const origin = cells[0] || { x: 0, y: 0 };
    const shown = cells.map((c) => turned(c, this.turn));
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const geos = shown.map((c) => {
      const g = cellGeometry(c, centroid);
      for (const [px, py] of g.points) {
        minX = Math.min(minX, px); maxX = Math.max(maxX, px);
        minY = Math.min(minY, py); maxY = Math.max(maxY, py);
      }
      return g;
    });
    const pad = 0.25;
    const svg = el('svg', {
      viewBox: `${fmt(minX - pad)} ${fmt(minY - pad)} ${fmt(maxX - minX + 2 * pad)} ${fmt(maxY - minY + 2 * pad)}`,
      role: 'group',
      'aria-label': `${this.variant} board`,
      'data-variant': this.variant,
      'data-view-seat': this.viewSeat,
      'data-turn': this.turn,
    });
    this.svg = svg;
    // The glow under a king in check (lishogi's): red at the centre, fading out.
    const glow = el('radialGradient', { id: 'check-glow' }, el('defs', {}, svg));
    [['0', '#ff0000', 1], ['0.45', '#e70000', 0.95], ['0.85', '#b00000', 0.35], ['1', '#9e0000', 0]].forEach(([offset, colour, opacity]) => {
      el('stop', { offset, 'stop-color': colour, 'stop-opacity': opacity }, glow);
    });
    this.cellLayer = el('g', { class: 'cells' }, svg);
    const cellLayer = this.cellLayer;
    cells.forEach((c, i) => {
      const geo = geos[i];
      const marked = this.marked.has(c.name);
      const g = el('g', {
        class: `cell shade-${shadeOf(c, origin)}${marked ? ' marked' : ''}`,
        'data-cell': c.name,
        tabindex: '-1',
        role: 'button',
      }, cellLayer);
      el('polygon', { points: pointsText(geo.points) }, g);
      if (marked) {
        const mark = el('text', { class: 'garden-mark', x: fmt(geo.cx), y: fmt(geo.cy), 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
        mark.textContent = '✿';
      }
      const label = el('text', { class: 'coord', x: fmt(geo.cx), y: fmt(geo.labelY), 'dominant-baseline': 'central' }, g);
      label.textContent = c.name;
      el('circle', { class: 'dot', cx: fmt(geo.cx), cy: fmt(geo.cy), r: fmt(0.22 * geo.scale) }, g);
      const pieceSlot = el('g', { class: 'piece-slot' }, g);
      // Screen coordinates, for the arrow keys.
      this.cells.set(c.name, { ...shown[i], geo, g, pieceSlot, marked });
      g.addEventListener('click', () => this.activate(c.name));
      g.addEventListener('focus', () => this.showFocus(c.name, g.matches(':focus-visible')));
    });
    this.focusRing = el('polygon', { class: 'focus-ring', hidden: '' }, svg);
    svg.addEventListener('keydown', (e) => this.onKey(e));
    svg.addEventListener('focusout', (e) => {
      if (!svg.contains(e.relatedTarget)) this.focusRing.setAttribute('hidden', '');
    });
    this.container.replaceChildren(svg);
    // Roving tabindex: one cell is in the tab order.
    const start = this.layout.marked?.[0] || cells[Math.floor(cells.length / 2)]?.name;
    this.setTabStop(start);
  }

  setTabStop(name) {
    if (!this.cells.has(name)) return;
    if (this.focused && this.cells.has(this.focused)) this.cells.get(this.focused).g.setAttribute('tabindex', '-1');
    this.focused = name;
    this.cells.get(name).g.setAttribute('tabindex', '0');
  }

  showFocus(name, visible = true) {
    this.setTabStop(name);
    if (!visible) {
      this.focusRing.setAttribute('hidden', '');
      return;
    }
    const cell = this.cells.get(name);
    this.focusRing.setAttribute('points', pointsText(cell.geo.points));
    this.focusRing.removeAttribute('hidden');
  }

  focusCell(name) {
    const cell = this.cells.get(name);
    if (!cell) return;
    this.setTabStop(name);
    cell.g.focus();
  }

  activate(name) {
    this.setTabStop(name);
    if (this.onActivate) this.onActivate(name);
  }

  /** The nearest cell from `name` in an arrow direction. */
  neighbour(name, key) {
    const from = this.cells.get(name);
    if (!from) return null;
    const rowTol = 0.7;
    let best = null;
    let bestScore = Infinity;
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      const sign = key === 'ArrowRight' ? 1 : -1;
      for (const c of this.cells.values()) {
        const dx = (c.x - from.x) * sign;
        if (dx <= 0.05 || Math.abs(c.y - from.y) > rowTol) continue;
        if (dx < bestScore) { bestScore = dx; best = c.name; }
      }
      return best;
    }
    const sign = key === 'ArrowDown' ? 1 : -1;
    let rowDy = Infinity;
    for (const c of this.cells.values()) {
      const dy = (c.y - from.y) * sign;
      if (dy > rowTol) rowDy = Math.min(rowDy, dy);
    }
    if (rowDy === Infinity) return null;
    for (const c of this.cells.values()) {
      const dy = (c.y - from.y) * sign;
      if (Math.abs(dy - rowDy) > rowTol) continue;
      const score = Math.abs(c.x - from.x) + 0.01 * Math.abs(dy - rowDy);
      if (score < bestScore) { bestScore = score; best = c.name; }
    }
    return best;
  }

  onKey(e) {
    const name = e.target.closest?.('.cell')?.dataset.cell || this.focused;
    if (!name) return;
    if (e.key.startsWith('Arrow')) {
      const next = this.neighbour(name, e.key);
      if (next) {
        this.focusCell(next);
        this.showFocus(next, true);
      }
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.activate(name);
      e.preventDefault();
    } else if (e.key === 'Home' || e.key === 'End') {
      const names = [...this.cells.keys()];
      this.focusCell(e.key === 'Home' ? names[0] : names[names.length - 1]);
      e.preventDefault();
    }
  }

  setCoordinates(show) {
    this.container.classList.toggle('coords', show);
  }

  /**
   * Draws a position and its highlights.
   * view = { board: [{cell, seat, letter, promoted}], trail: [{seat, cells}] (oldest first),
   *          checked: [seats], motion: {from, to} (from null for a drop) | null, selected,
   *          dests: Set, targets: Set, chosen: Set, movable: Set, interactive }
   */
  render(view) {
    this.lastView = view;
    const board = new Map((view.board || []).map((p) => [p.cell, p]));
    const trail = this.trailOf(view.trail || []);
    const checked = new Set(view.checked || []);
    this.container.classList.toggle('interactive', !!view.interactive);
    for (const [name, cell] of this.cells) {
      const piece = board.get(name) || null;
      const key = piece ? `${piece.seat}:${piece.letter}:${piece.promoted ? 1 : 0}` : '';
      if (this.pieces.get(name) !== key) {
        this.pieces.set(name, key);
        cell.pieceSlot.replaceChildren();
        if (piece) this.drawPiece(cell, piece);
      }
      const cls = cell.g.classList;
      cls.toggle('has-piece', !!piece);
      const step = trail.get(name);
      cls.toggle('last', !!step);
      cls.toggle('latest', !!step?.latest);
      if (step) {
        cell.g.style.setProperty('--trail', step.colour);
        cell.g.style.setProperty('--trail-mix', `${step.mix}%`);
        cell.g.dataset.trail = step.seat;
      } else {
        cell.g.style.removeProperty('--trail');
        cell.g.style.removeProperty('--trail-mix');
        delete cell.g.dataset.trail;
      }
      this.markCheck(cell, !!piece && piece.letter === 'K' && !piece.promoted && checked.has(piece.seat));
      cls.toggle('selected', view.selected === name);
      cls.toggle('dest', !!view.dests?.has(name));
      cls.toggle('target', !!view.targets?.has(name));
      cls.toggle('chosen', !!view.chosen?.has(name));
      cls.toggle('movable', !!view.movable?.has(name));
      cell.g.setAttribute('aria-label', this.describe(name, piece, cell, view));
      if (piece) cell.g.dataset.piece = `${piece.seat}:${piece.promoted ? '+' : ''}${piece.letter}`;
      else delete cell.g.dataset.piece;
    }
    if (view.motion) this.animate(view.motion);
  }

  /**
   * Cell → how it is marked by the moves of the trail: its seat's colour, stronger the more
   * recent the move; a cell touched twice shows the later move.
   */
  trailOf(moves) {
    const marks = new Map();
    moves.forEach((mv, i) => {
      const latest = i === moves.length - 1;
      const mix = latest ? 50 : Math.round(25 + (15 * (i + 1)) / moves.length);
      const colour = seatStyle(mv.seat, Math.max(0, this.seats.indexOf(mv.seat))).trail;
      for (const cell of mv.cells) marks.set(cell, { seat: mv.seat, colour, mix, latest });
    });
    return marks;
  }

  /** The red glow under a king in check. */
  markCheck(cell, inCheck) {
    cell.g.classList.toggle('in-check', inCheck);
    const glow = cell.g.querySelector('.check-glow');
    if (inCheck && !glow) {
      cell.g.insertBefore(el('circle', {
        class: 'check-glow', cx: fmt(cell.geo.cx), cy: fmt(cell.geo.cy), r: fmt(1.1 * cell.geo.scale), fill: 'url(#check-glow)',
      }), cell.pieceSlot);
    } else if (!inCheck && glow) glow.remove();
  }

  /**
   * The piece just moved slides from its cell to its new one (its cell drawn last, so that it
   * passes over the others); a dropped piece fades in. CSS times both, and stills them for
   * readers who ask for reduced motion.
   */
  animate({ from, to }) {
    const target = this.cells.get(to);
    // A piece dragged to its cell is there already: it does not slide back in.
    const dragged = this.draggedTo === to;
    this.draggedTo = null;
    if (!target || !target.pieceSlot.firstChild || dragged) return;
    const source = from && this.cells.get(from);
    if (!source) {
      target.pieceSlot.firstChild.classList.add('dropped');
      return;
    }
    const slot = target.pieceSlot;
    this.cellLayer.appendChild(target.g);
    slot.classList.remove('sliding');
    slot.style.transform = `translate(${fmt(source.geo.cx - target.geo.cx)}px, ${fmt(source.geo.cy - target.geo.cy)}px)`;
    slot.getBoundingClientRect(); // the start position takes effect before the transition
    slot.classList.add('sliding');
    slot.style.transform = '';
  }

  describe(name, piece, cell, view) {
    const parts = [name];
    if (cell.marked) parts.push('Pleasure Garden');
    parts.push(piece ? `${piece.seat} ${pieceName(this.variant, piece.letter, piece.promoted)}` : 'empty');
    if (cell.g.classList.contains('in-check')) parts.push('in check');
    if (view.selected === name) parts.push('selected');
    if (view.dests?.has(name)) parts.push('legal destination');
    if (view.chosen?.has(name)) parts.push('chosen for removal');
    else if (view.targets?.has(name)) parts.push('can be removed');
    return parts.join(', ');
  }

  drawPiece(cell, piece) {
    this.pieceGraphic(piece, cell.geo.cx, cell.geo.cy, cell.geo.scale, cell.pieceSlot);
  }

  /** Draws `piece` ({seat, letter, promoted}) centred on (x, y) at `scale` into `parent`. */
  pieceGraphic(piece, x, y, scale, parent) {
    const index = Math.max(0, this.seats.indexOf(piece.seat));
    const style = seatStyle(piece.seat, index);
    // Each army's letters face its own side, as the board is turned.
    const rotation = (this.layout.seat_rotation?.[index] || 0) + this.turn;
    const glyph = pieceGlyph(piece.letter, piece.promoted);
    const g = el('g', {
      class: `piece seat-${index}${piece.promoted ? ' promoted' : ''}${glyph.kanji ? ' kanji' : ''}`,
      transform: `translate(${fmt(x)} ${fmt(y)}) rotate(${rotation}) scale(${scale})`,
    }, parent);
    // A shogi piece: a pentagon pointing toward its owner's forward direction.
    el('path', {
      class: 'body',
      d: 'M0,-0.78 L0.52,-0.5 L0.64,0.66 L-0.64,0.66 L-0.52,-0.5 Z',
      fill: style.fill,
      stroke: style.stroke,
    }, g);
    // A kanji fills the body's width; a glyph of two characters (a letter with its `+`, or a
    // two-kanji name) is written smaller so that it stays inside the pentagon.
    const size = glyph.text.length > 1 ? (glyph.kanji ? 0.46 : 0.62) : glyph.kanji ? 0.8 : 0.78;
    const text = el('text', {
      x: 0, y: glyph.kanji ? 0.06 : 0.1, fill: (piece.promoted && style.promoted) || style.text, 'font-size': size,
    }, g);
    text.textContent = glyph.text;
    const title = el('title', {}, g);
    title.textContent = `${piece.seat} ${pieceName(this.variant, piece.letter, piece.promoted)}`;
    return g;
  }

  /** The pieces drawn again, as they are, after the piece set changed. */
  redrawPieces() {
    this.pieces.clear();
    if (this.lastView) this.render({ ...this.lastView, motion: null });
  }

  /** The cell under a point of the screen, or null. */
  cellAt(clientX, clientY) {
    const hit = document.elementFromPoint(clientX, clientY)?.closest?.('[data-cell]');
    return hit && this.svg.contains(hit) ? hit.dataset.cell : null;
  }

  /**
   * A ghost of `piece` for dragging: an element of its own, fixed to the viewport, as big as a
   * piece on the board (a little bigger, as if lifted), drawn upright as the board shows it.
   */
  ghost(piece) {
    const unit = this.svg.getScreenCTM()?.a || 20; // pixels per layout unit
    const scale = this.cells.values().next().value?.geo.scale || 0.86;
    const size = Math.round(2 * unit * 1.15);
    const box = document.createElement('div');
    box.className = 'drag-ghost';
    box.style.width = box.style.height = `${size}px`;
    const svg = el('svg', { viewBox: '-1 -1 2 2', width: size, height: size, 'aria-hidden': 'true' }, box);
    this.pieceGraphic(piece, 0, 0, scale, svg);
    return box;
  }
}
