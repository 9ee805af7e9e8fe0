// A player's rating history in one variant as inline SVG: the rating after each rated game as a
// line from the start (1500), a band of ± the deviation around it, and labelled axes; drawn at
// the width it gets (text stays readable on a phone) and again when that width changes.

const SVG = 'http://www.w3.org/2000/svg';
/** Every account starts here (docs: a new player is 1500 ± 500). */
const START = { rating: 1500, deviation: 500 };

function svgEl(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

/** A round step for about `count` ticks over `span` rating points. */
function niceStep(span, count) {
  const raw = span / count;
  return [10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => s >= raw) || 1000;
}

/**
 * Draws `history` ([{ game, ms, rating, deviation }], oldest first) in `box`, and again when
 * the box is resized. `label` names the chart for screen readers.
 */
export function drawRatingChart(box, history, label) {
  const draw = () => box.replaceChildren(chart(history, Math.max(260, box.clientWidth || 600), label));
  draw();
  let width = box.clientWidth;
  new ResizeObserver(() => {
    if (box.clientWidth !== width) {
      width = box.clientWidth;
      draw();
    }
  }).observe(box);
}

function chart(history, width, label) {
  const points = [{ ...START, start: true }, ...history];
  const phone = width < 500;
  const height = phone ? 200 : 240;
  const pad = { left: 46, right: 14, top: 12, bottom: 40 };
  const ratings = points.map((p) => p.rating);
  // The scale follows the ratings (the band would flatten them while it is wide): the band is
  // cut at the plot's edges, which says "uncertain" by itself.
  const lowest = Math.min(...ratings);
  const highest = Math.max(...ratings);
  const margin = Math.max(40, (highest - lowest) * 0.15);
  const step = niceStep(highest - lowest + 2 * margin, phone ? 3 : 4);
  const yMin = Math.floor((lowest - margin) / step) * step;
  const yMax = Math.ceil((highest + margin) / step) * step;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (i) => pad.left + (points.length > 1 ? (i / (points.length - 1)) * plotW : plotW / 2);
  const y = (r) => pad.top + (1 - (r - yMin) / (yMax - yMin)) * plotH;

  const svg = svgEl('svg', {
    viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', class: 'rating-chart-svg', 'aria-label': label,
  });
  const clipId = `plot-${Math.random().toString(36).slice(2, 8)}`;
  const clip = svgEl('clipPath', { id: clipId });
  clip.append(svgEl('rect', { x: pad.left, y: pad.top, width: plotW, height: plotH }));
  svg.append(svgEl('defs'), clip);

  // Grid and the rating axis.
  for (let r = yMin; r <= yMax; r += step) {
    svg.append(svgEl('line', { x1: pad.left, x2: width - pad.right, y1: y(r), y2: y(r), class: 'grid' }));
    svg.append(svgEl('text', { x: pad.left - 6, y: y(r), class: 'tick y-tick' }, String(r)));
  }
  // The deviation band, then the line and its points.
  const upper = points.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse();
  svg.append(svgEl('polygon', { points: [...upper, ...lower].join(' '), class: 'band', 'clip-path': `url(#${clipId})` }));
  svg.append(svgEl('polyline', { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(' '), class: 'line' }));
  points.forEach((p, i) => {
    const dot = svgEl('circle', { cx: x(i), cy: y(p.rating), r: phone ? 3.5 : 4, class: p.start ? 'dot start' : 'dot' });
    dot.append(svgEl('title', {}, p.start ? `Start: ${p.rating} ± ${p.deviation}`
      : `After game ${i} (${new Date(p.ms).toLocaleDateString('en-GB')}): ${p.rating} ± ${p.deviation}`));
    svg.append(dot);
  });
  // The games axis: a few labels, never crowded.
  const every = Math.max(1, Math.ceil((points.length - 1) / (phone ? 4 : 8)));
  points.forEach((p, i) => {
    if (i !== 0 && i !== points.length - 1 && i % every) return;
    svg.append(svgEl('text', { x: x(i), y: height - pad.bottom + 16, class: 'tick x-tick' }, i === 0 ? 'start' : String(i)));
  });
  svg.append(svgEl('text', { x: pad.left + plotW / 2, y: height - 4, class: 'axis-title' }, 'Rated games'));
  svg.append(svgEl('line', { x1: pad.left, x2: pad.left, y1: pad.top, y2: pad.top + plotH, class: 'axis' }));
  svg.append(svgEl('line', { x1: pad.left, x2: width - pad.right, y1: pad.top + plotH, y2: pad.top + plotH, class: 'axis' }));
  return svg;
}
