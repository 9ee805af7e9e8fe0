// The engine's review of a finished game on the game page (docs/API.md, "Game review"): the
// button that asks for it, its progress, then the chart, the marks in the move list, the
// engine's moves at the ply shown and each seat's summary. A stored review shows at once.

import { getJSON, postJSON } from './api.js';
import { seatColour } from './board.js';
import { state, currentPly } from './game-state.js';
import { gameId } from './page-link.js';
import { drawReviewChart, pawns, MARK_COLOURS } from './review-chart.js';
import { markTitle, setMoveMarks } from './move-list.js';

const $ = (id) => document.getElementById(id);

/** How often a review in progress is asked for. */
const POLL_MS = 1500;

/**
 * The chart's line of a seat: the board's colour of that seat, except where it would not show
 * on the light plot (White is drawn white with a dark casing; Black and Gray as on the board).
 */
const LINE_STYLES = {
  Black: { colour: '#1d1d1d' },
  White: { colour: '#ffffff', casing: '#5a5a5a' },
  Gray: { colour: '#8d949b', dash: '6 3' },
};

let onGoTo = () => {};
let looked = false;   // the page asked whether a review exists
let review = null;    // the review as the server last gave it
let poll = null;      // the timer of the next GET while the review runs
let chart = null;     // the drawn chart, once the review is done
let shownPly = -1;    // the ply the engine's words were last written for

const reviewPath = () => `/api/games/${encodeURIComponent(gameId)}/review`;

/** Wires the Review button; `goTo(ply)` shows a ply (the page's stepping through the game). */
export function initReview({ goTo }) {
  onGoTo = goTo;
  $('review-ask').addEventListener('click', ask);
  // Polling stops when the page goes away or is hidden, and takes up again when it is back.
  addEventListener('pagehide', stopPolling);
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) stopPolling();
    else if (review && review.status !== 'done') schedule(0);
  });
}

/** Called with every drawing of the page: looks the review up once the game is over. */
export function renderReview() {
  const { game } = state;
  const section = $('review');
  // An aborted game (a seat that never moved) has nothing to review, as on lichess.
  if (!game?.outcome || game.outcome.aborted || !game.moves.length) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  if (!looked) {
    looked = true;
    fetchReview(true);
  }
  if (review?.status === 'done') showPly();
}

async function fetchReview(first = false) {
  try {
    show(await getJSON(reviewPath(), { live: true }));
  } catch (err) {
    if (err.status === 404 && first) showAsk();
    else if (err.status === 404) showError('The review stopped: the game could not be replayed.');
    else if (first) showAsk();
    else {
      // A passing failure: ask again a little later.
      showError(`The review could not be fetched (${err.message}); trying again.`);
      schedule(POLL_MS * 2);
    }
  }
}

async function ask() {
  const button = $('review-ask');
  button.disabled = true;
  $('review-error').hidden = true;
  try {
    show(await postJSON(reviewPath(), {}));
  } catch (err) {
    button.disabled = false;
    showError(err.status === 503 ? 'The engine has too many games to review: try again in a few minutes.'
      : `The review could not be asked for: ${err.message}`);
  }
}

function showAsk() {
  $('review-ask-row').hidden = false;
  $('review-ask').disabled = false;
  $('review-progress-box').hidden = true;
  $('review-result').hidden = true;
}

function showError(text) {
  const p = $('review-error');
  p.textContent = text;
  p.hidden = false;
}

function schedule(ms) {
  stopPolling();
  poll = setTimeout(() => {
    poll = null;
    fetchReview();
  }, ms);
}

function stopPolling() {
  if (poll) clearTimeout(poll);
  poll = null;
}

/** Shows the review as the server gave it; polls again while it is not done. */
function show(next) {
  review = next;
  $('review-error').hidden = true;
  $('review-ask-row').hidden = true;
  const section = $('review');
  section.dataset.status = next.status;
  if (next.status !== 'done') {
    const box = $('review-progress-box');
    box.hidden = false;
    const bar = $('review-progress');
    bar.max = next.total;
    bar.value = next.done;
    $('review-progress-text').textContent = next.status === 'queued'
      ? 'Queued: the engine reviews one game at a time.'
      : `Reviewing: ${next.done} of ${next.total} positions`;
    if (!document.hidden) schedule(POLL_MS);
    return;
  }
  stopPolling();
  $('review-progress-box').hidden = true;
  drawResult();
}

/** What the page calls a seat: its name and, when known, who sat there. */
function seatLabel(s) {
  if (s.player?.name) return `${s.seat} (${s.player.name})`;
  if (s.kind === 'bot') return `${s.seat} (bot${s.level ? `, ${s.level}` : ''})`;
  return s.seat;
}

function drawResult() {
  const { game } = state;
  const { plies } = review;
  $('review-result').hidden = false;
  // Each move's mark, for the move list.
  const marks = new Map();
  plies.forEach((p, ply) => {
    if (p.mark && ply > 0) marks.set(ply, { mark: p.mark, loss: p.loss });
  });
  setMoveMarks(marks);
  const seats = game.seats.map((s, i) => ({
    seat: s.seat,
    label: s.seat,
    colour: LINE_STYLES[s.seat]?.colour || seatColour(s.seat, i),
    casing: LINE_STYLES[s.seat]?.casing,
    dash: LINE_STYLES[s.seat]?.dash,
  }));
  chart?.stop();
  const box = $('review-chart');
  chart = drawReviewChart(box, {
    plies,
    seats,
    moves: game.moves,
    label: `The engine's evaluation of each seat after every move, ${plies.length - 1} moves; `
      + 'click a move to see its position.',
    onPick: (ply) => onGoTo(ply),
  });
  renderKey(seats);
  renderSummary();
  shownPly = -1;
  showPly();
  // The move list gains its marks.
  onGoTo(state.viewPly);
}

/** The chart's key: each seat's line as it is drawn. */
function renderKey(seats) {
  $('review-key').replaceChildren(...seats.map((s) => {
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = s.colour;
    if (s.casing) swatch.style.borderColor = s.casing;
    if (s.dash) swatch.classList.add('dashed');
    li.append(swatch, s.seat);
    return li;
  }), ...Object.entries(MARK_COLOURS).map(([mark, colour]) => {
    const li = document.createElement('li');
    const dot = document.createElement('span');
    dot.className = 'dot';
    dot.style.background = colour;
    li.append(dot, mark);
    return li;
  }));
}

/** Per seat: its moves' inaccuracies, mistakes, blunders and average loss. */
function renderSummary() {
  const { game } = state;
  const { plies } = review;
  const rows = game.seats.map((s, i) => {
    const losses = [];
    const count = { inaccuracy: 0, mistake: 0, blunder: 0 };
    game.moves.forEach((mv, index) => {
      if (mv.seat !== s.seat) return;
      const p = plies[index + 1];
      if (typeof p?.loss === 'number') losses.push(p.loss);
      if (p?.mark) count[p.mark] += 1;
    });
    const tr = document.createElement('tr');
    tr.dataset.seat = s.seat;
    const th = document.createElement('th');
    th.scope = 'row';
    th.style.setProperty('--seat-colour', seatColour(s.seat, i));
    th.textContent = seatLabel(s);
    // In pawns, as the marks and the chart say it.
    const average = losses.length ? (losses.reduce((a, b) => a + b, 0) / losses.length / 100).toFixed(2) : null;
    const cells = [count.inaccuracy, count.mistake, count.blunder, average ?? '—'].map((v, k) => {
      const td = document.createElement('td');
      td.textContent = String(v);
      if (k < 3) td.dataset.mark = ['inaccuracy', 'mistake', 'blunder'][k];
      if (k < 3 && v > 0) td.classList.add('some');
      return td;
    });
    tr.append(th, ...cells);
    return tr;
  });
  $('review-summary-body').replaceChildren(...rows);
}

/** The marker and the engine's words at the ply shown. */
function showPly() {
  const ply = currentPly();
  chart?.setCurrent(ply);
  if (ply === shownPly) return;
  shownPly = ply;
  const { game } = state;
  const { plies } = review;
  const here = plies[ply];
  const before = plies[ply - 1];
  const mv = game.moves[ply - 1];
  // The move that led here, and what the engine would have played instead.
  const played = $('review-played');
  played.replaceChildren();
  if (mv && before) {
    const mark = here?.mark ? ` — ${markTitle(here.mark, here.loss)}.` : '.';
    played.append(`Move ${ply}, ${mv.seat} ${mv.short || mv.move}${mark} `);
    if (before.best === mv.move) played.append('The engine would have played it too.');
    else if (before.best) played.append('The engine preferred ', moveSpan(before.best_short, before.best), '.');
    if (here?.mark) played.dataset.mark = here.mark;
    else delete played.dataset.mark;
  } else {
    played.append('The start position.');
    delete played.dataset.mark;
  }
  // The engine's move for the seat to move here.
  const next = $('review-next');
  next.replaceChildren();
  const toMove = game.moves[ply]?.seat;
  if (here?.best && toMove) {
    next.append(`Best here for ${toMove}: `, moveSpan(here.best_short, here.best), '.');
  } else if (here?.best) {
    next.append('Best here: ', moveSpan(here.best_short, here.best), '.');
  } else {
    next.append('The game is over here.');
  }
  // Each seat's value.
  const values = game.seats.map((s) => {
    const v = here?.scores?.[s.seat];
    return `${s.seat} ${typeof v === 'number' ? pawns(v) : '—'}`;
  });
  $('review-eval').textContent = `Evaluation (pawns, each seat's own view): ${values.join(' · ')}`;
}

function moveSpan(short, canonical) {
  const span = document.createElement('span');
  span.className = 'engine-move';
  span.dataset.move = canonical;
  span.textContent = short || canonical;
  return span;
}
