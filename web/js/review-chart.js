// A game review's evaluation chart as inline SVG: one line per seat over the plies, on lichess's
// squashed "winning chances" scale, a zero line, the marked moves as dots and the ply shown as a
// marker; a click or tap picks a ply, hovering tells the ply and the seats' values.

import { signedPawns } from './game-words.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Scores are held within ±2000 centipawns by the server (docs/API.md, "Game review"). */
export const SCORE_CAP = 2000;

/** The marks' colours, as lichess's: inaccuracy yellow, mistake orange, blunder red. */
export const MARK_COLOURS = { inaccuracy: '#d4a300', mistake: '#e07000', blunder: '#d01919' };

/**
 * Lichess's winning-chances curve, from −1 to 1: a pawn near an even position moves the line
 * far more than a pawn in a won one, so the chart says who stands better without one big
 * capture flattening the rest of the game.
 */
export function squash(cp) {
  const held = Math.max(-SCORE_CAP, Math.min(SCORE_CAP, cp));
  return 2 / (1 + Math.exp(-0.00368208 * held)) - 1;
}

/** Centipawns as signed pawns: "+1.2", "−0.4", "0.0". */
export const pawns = (cp) => signedPawns(cp, 1);

function svgEl(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

/**
 * Each seat's value at every ply, one per ply: a ply without a value for a seat (a position the
 * server left unscored) keeps the value before it.
 */
export function seatSeries(plies, seat) {
  let last = 0;
  return plies.map((p) => {
    const v = p.scores?.[seat];
    if (typeof v === 'number') last = v;
    return last;
  });
}

/**
 * Draws the chart in `box` and again when its width changes; answers `{ setCurrent(ply) }`.
 * `seats`: [{ seat, label, colour, casing, dash }] in seat order; `plies`: the review's;
 * `moves`: the game's moves (for the hover text); `onPick(ply)` on a click or tap.
 */
export function drawReviewChart(box, { plies, seats, moves, label, onPick }) {
  let current = 0;
  let drawn = null;
  const draw = () => {
    drawn = chart({ plies, seats, moves, label, onPick, width: Math.max(260, box.clientWidth || 600) });
    box.replaceChildren(drawn.svg, drawn.tip);
    drawn.setCurrent(current);
  };
  draw();
  let width = box.clientWidth;
  const observer = new ResizeObserver(() => {
    if (box.clientWidth !== width) {
      width = box.clientWidth;
      draw();
    }
  });
  observer.observe(box);
  return {
    setCurrent(ply) {
      current = ply;
      drawn.setCurrent(ply);
    },
    stop() {
      observer.disconnect();
    },
  };
}

function chart({ plies, seats, moves, label, onPick, width }) {
  const phone = width < 500;
  const height = phone ? 170 : 200;
  const pad = { left: 30, right: 8, top: 8, bottom: 22 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const last = Math.max(1, plies.length - 1);
  const x = (ply) => pad.left + (ply / last) * plotW;
  const y = (cp) => pad.top + (1 - (squash(cp) + 1) / 2) * plotH;
  const svg = svgEl('svg', {
    viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', class: 'review-chart-svg',
    'aria-labelledby': 'review-chart-title',
  });
  svg.append(svgEl('title', { id: 'review-chart-title' }, label));
  svg.append(svgEl('rect', { x: pad.left, y: pad.top, width: plotW, height: plotH, class: 'plot' }));
  // Bands at ±2 and ±5 pawns, labelled; the zero line stronger.
  for (const cp of [500, 200, -200, -500]) {
    svg.append(svgEl('line', { x1: pad.left, x2: pad.left + plotW, y1: y(cp), y2: y(cp), class: 'grid' }));
    svg.append(svgEl('text', { x: pad.left - 4, y: y(cp) + 3.5, class: 'tick', 'text-anchor': 'end' }, pawns(cp).replace('.0', '')));
  }
  svg.append(svgEl('line', { x1: pad.left, x2: pad.left + plotW, y1: y(0), y2: y(0), class: 'zero' }));
  svg.append(svgEl('text', { x: pad.left - 4, y: y(0) + 3.5, class: 'tick', 'text-anchor': 'end' }, '0'));
  // The plies along the bottom: about one label per 60 px.
  const every = Math.max(1, Math.ceil(last / Math.max(1, Math.floor(plotW / 60))));
  const steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500];
  const step = steps.find((s) => s >= every) || every;
  for (let ply = 0; ply <= last; ply += step) {
    svg.append(svgEl('text', { x: x(ply), y: height - 6, class: 'tick', 'text-anchor': 'middle' }, String(ply)));
  }
  // The marker of the ply shown, under the lines.
  const marker = svgEl('line', { y1: pad.top, y2: pad.top + plotH, class: 'current' });
  svg.append(marker);
  const lines = svgEl('g', { class: 'lines' });
  for (const s of seats) {
    const values = seatSeries(plies, s.seat);
    const points = values.map((v, ply) => `${x(ply).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    // A light line (White's) gets a dark casing under it, so it shows on the light plot.
    if (s.casing) {
      lines.append(svgEl('polyline', { points, class: 'casing', stroke: s.casing, fill: 'none' }));
    }
    lines.append(svgEl('polyline', {
      points, class: 'seat-line', stroke: s.colour, fill: 'none', 'data-seat': s.seat, 'stroke-dasharray': s.dash || 'none',
    }));
  }
  svg.append(lines);
  // The marked moves: a dot on the mover's line, in the mark's colour.
  const dots = svgEl('g', { class: 'marks' });
  plies.forEach((p, ply) => {
    const mover = moves[ply - 1]?.seat;
    if (!p.mark || !mover) return;
    const value = seatSeries(plies.slice(0, ply + 1), mover)[ply];
    dots.append(svgEl('circle', {
      cx: x(ply), cy: y(value), r: phone ? 3.5 : 4, fill: MARK_COLOURS[p.mark], class: 'mark', 'data-ply': ply, 'data-mark': p.mark,
    }));
  });
  svg.append(dots);
  const hover = svgEl('line', { y1: pad.top, y2: pad.top + plotH, class: 'hover', visibility: 'hidden' });
  svg.append(hover);
  // The whole plot takes clicks, taps and the pointer.
  const area = svgEl('rect', { x: pad.left, y: 0, width: plotW, height, class: 'hit' });
  svg.append(area);

  // Above the plot: how to use it, or the ply under the pointer and the seats' values there.
  const tip = document.createElement('div');
  tip.className = 'review-tip';
  const hint = () => {
    tip.textContent = `${matchMedia('(hover: hover)').matches ? 'Click' : 'Tap'} the chart to see the position after a move.`;
    delete tip.dataset.ply;
  };
  hint();
  const plyAt = (event) => {
    const rect = svg.getBoundingClientRect();
    const px = ((event.clientX - rect.left) / rect.width) * width;
    return Math.max(0, Math.min(last, Math.round(((px - pad.left) / plotW) * last)));
  };
  const showTip = (ply) => {
    hover.setAttribute('x1', x(ply));
    hover.setAttribute('x2', x(ply));
    hover.setAttribute('visibility', 'visible');
    const mv = moves[ply - 1];
    const head = ply === 0 ? 'Start' : `Move ${ply}: ${mv.seat} ${mv.short || mv.move}`;
    const mark = plies[ply]?.mark ? ` (${plies[ply].mark})` : '';
    const values = seats.map((s) => `${s.label} ${pawns(seatSeries(plies.slice(0, ply + 1), s.seat)[ply])}`);
    tip.textContent = `${head}${mark} · ${values.join(' · ')}`;
    tip.dataset.ply = String(ply);
  };
  area.addEventListener('pointermove', (e) => showTip(plyAt(e)));
  area.addEventListener('pointerleave', () => {
    hover.setAttribute('visibility', 'hidden');
    hint();
  });
  area.addEventListener('click', (e) => onPick(plyAt(e)));

  return {
    svg,
    tip,
    setCurrent(ply) {
      const cx = x(Math.max(0, Math.min(last, ply)));
      marker.setAttribute('x1', cx);
      marker.setAttribute('x2', cx);
      svg.dataset.current = String(ply);
    },
  };
}
