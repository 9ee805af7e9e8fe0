// The move list: one button per ply (the start position first) with the events that followed
// each move, the shown ply marked, and the buttons that go through the game.

import { seatColour } from './board.js';
import { state, seatIndex, currentPly } from './game-state.js';

const $ = (id) => document.getElementById(id);

let renderedMoves = ''; // the moves the list was last built for, so it is rebuilt only when they change
let marks = new Map();  // ply → { mark, loss }: the review's marks (review.js)
let marksKey = '';

/** The symbols of the review's marks, as lichess writes them. */
const MARK_SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const MARK_WORDS = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

/** The words of a mark: "Mistake: lost 3.4 pawns". */
export function markTitle(mark, loss) {
  const lost = (loss / 100).toFixed(1);
  return `${MARK_WORDS[mark]}: lost ${lost} pawn${lost === '1.0' ? '' : 's'}`;
}

/** Puts the review's marks (ply → { mark, loss }) after the moves; an empty map takes them away. */
export function setMoveMarks(next) {
  marks = next;
  marksKey = [...next].map(([ply, m]) => `${ply}${m.mark[0]}`).join(',');
}

/** One entry of the list: the start position (ply 0, with what happened before the first move) or a move. */
function moveItem(ply, mv, onGoTo, events = mv?.events) {
  const li = document.createElement('li');
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.ply = String(ply);
  if (!mv) {
    li.className = 'start';
    b.textContent = 'Start position';
  } else {
    const i = seatIndex(mv.seat);
    b.style.setProperty('--seat-colour', seatColour(mv.seat, i));
    b.dataset.move = mv.move;
    b.innerHTML = '<span class="ply"></span><span class="mover"></span><span class="text"></span>';
    b.querySelector('.ply').textContent = `${ply}.`;
    b.querySelector('.mover').textContent = mv.seat;
    b.querySelector('.text').textContent = mv.short || mv.move;
    b.title = mv.move;
    const mark = marks.get(ply);
    if (mark) {
      const m = document.createElement('span');
      m.className = 'review-mark';
      m.dataset.mark = mark.mark;
      m.textContent = MARK_SYMBOLS[mark.mark];
      m.title = markTitle(mark.mark, mark.loss);
      b.append(m);
      b.title = `${mv.move} — ${m.title}`;
      b.setAttribute('aria-label', `${ply}. ${mv.seat} ${mv.short || mv.move}, ${m.title}`);
    }
  }
  b.addEventListener('click', () => onGoTo(ply));
  li.appendChild(b);
  if (events?.length) {
    const ev = document.createElement('span');
    ev.className = 'events';
    ev.textContent = events.join('; ');
    li.appendChild(ev);
  }
  return li;
}

/** Draws the list; a click on a move calls `onGoTo(ply)`. */
export function renderMoves(onGoTo) {
  const { game, viewPly } = state;
  const list = $('moves');
  const n = game.moves.length;
  // Resignations, answers and draws add events to the last move without adding a move.
  const opening = game.opening_events || [];
  const key = `${n}|${(game.moves[n - 1]?.events || []).length}|${opening.length}|${marksKey}`;
  if (renderedMoves !== key) {
    const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.replaceChildren(moveItem(0, null, onGoTo, opening), ...game.moves.map((mv, i) => moveItem(i + 1, mv, onGoTo)));
    renderedMoves = key;
    if (stick || viewPly === null) list.scrollTop = list.scrollHeight;
  }
  const cur = currentPly();
  for (const b of list.querySelectorAll('button')) {
    const on = Number(b.dataset.ply) === cur;
    b.setAttribute('aria-current', on ? 'true' : 'false');
    b.tabIndex = on ? 0 : -1;
  }
  $('nav-first').disabled = cur === 0;
  $('nav-prev').disabled = cur === 0;
  $('nav-next').disabled = cur >= n;
  $('nav-last').disabled = viewPly === null;
}

/** The button of the ply shown. */
export function currentMoveButton() {
  return $('moves').querySelector('[aria-current="true"]');
}
