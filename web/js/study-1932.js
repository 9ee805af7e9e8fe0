// The 1932 study (/study/1932): the Sannin sample game of records/sannin-1932-sample.psn on a
// board that steps through it, each move told in words for players, and at every ply a link to
// the analysis board at that position.

import { api } from './api.js';
import { BoardView, seatColour } from './board.js';
import { parseMove, setPieceNames } from './moves.js';
import { setKanji } from './piece-set.js';
import { nextViewSeat } from './orientation.js';
import { studyPosition } from './analysis-positions.js';
import { analysisHref } from './analysis-start.js';
import { showNotice } from './notices.js';

const $ = (id) => document.getElementById(id);

/** The record, as records/sannin-1932-sample.psn holds it. */
const RECORD = `[Variant "sannin"]
[Event "Sample game, first six rounds, as printed in English Wikipedia's Sannin shogi article"]
[Date "1932.05.28"]
[Result "*"]

1. P3c-4d P10k-10j P11g-10g
2. S-2d S-9l S-10e
3. S-2e P7k-6j P8d-7d
4. P-4e R-7g+ Bx12l
5. G-3d Sx12l P-9g
6. P4d-5e +R-7l R-10g
*
`;

/** What each move does, by ply (checked against the positions the server plays). */
const NOTES = [
  'The start. Each army sits in its own corner of the hexagon, turned 120° from the others; the kings are on 10d (Last), 1d (First) and 10m (Middle), and the Garden, 7g, is the centre.',
  'First opens with a pawn: 3c to 4d, one step to its 11 o\'clock (Sannin pawns step to their 11 or 1 o\'clock).',
  'Middle answers the same way, a pawn to its 11 o\'clock: 10k to 10j. It is the pawn First\'s bishop on 2g aimed at from the start; with it gone, First\'s bishop and Middle\'s bishop on 12l face each other along that diagonal.',
  'Last too: 11g to 10g, a pawn to its 11 o\'clock. After one round all three have made the same move, each from its own side.',
  'Round 2 brings the silvers out. First\'s silver goes from 1b to 2d.',
  'Middle\'s silver goes from 8m to 9l.',
  'Last\'s silver goes from 12f to 10e: every player has a silver in play.',
  'First brings out his other silver, from 1f to 2e.',
  'Middle moves the pawn in front of his rook, 7k to 6j: the rook\'s file from 7l up to the centre is open now.',
  'Last moves the pawn on 8d, the one Middle\'s bishop on 12l aims at from the start, to 7d. That opens the long diagonal between Last\'s bishop on 7b and Middle\'s bishop on 12l: Middle\'s bishop now faces two enemy bishops.',
  'First pushes another pawn to its 11 o\'clock: 3d to 4e.',
  'Middle\'s rook runs up the open file from 7l to the centre, 7g, and promotes there: a dragon (promoted rook) on the Garden. Middle could have taken either enemy bishop with his own (on 7b or on 2g); he leaves his bishop where both can take it.',
  '4…Bx12l: Last\'s bishop takes Middle\'s bishop on 12l, along the diagonal opened on move 9, and does not promote (it could have). The captured bishop goes into Last\'s hand.',
  'First brings a gold up from 1c to 3d, the cell his pawn left on move 10.',
  '5…Sx12l: Middle takes back with the silver from 12m (the lance on 13m could have taken too). The bishops are traded: Middle and Last each hold a bishop in hand, to drop later.',
  'Last pushes on with the pawn he moved first: 10g to 9g.',
  'First\'s first pawn moves on, 4d to 5e, again to its 11 o\'clock.',
  'Middle\'s dragon leaves the centre and goes back to 7l, the rook\'s starting cell, still promoted.',
  'Last\'s rook moves along its row from 12g to 10g, behind the pawn it pushed. The sample ends here, after six rounds: First is to move.',
];

const page = { moves: [], positions: new Map(), ply: 0, board: null, seats: [] };

async function positionAt(ply) {
  if (!page.positions.has(ply)) {
    page.positions.set(ply, await studyPosition({ record: RECORD, ply }));
  }
  return page.positions.get(ply);
}

let going = 0;
async function goTo(ply) {
  const mine = ++going;
  const before = page.ply;
  page.ply = ply;
  renderNotes();
  let shown;
  try {
    shown = await positionAt(ply);
  } catch (err) {
    showNotice(err.message);
    return;
  }
  if (mine !== going) return;
  const mv = ply === before + 1 ? parseMove(page.moves[ply - 1].move) : null;
  const trail = page.moves.slice(Math.max(0, ply - 2), ply).map((m) => {
    const p = parseMove(m.move);
    return { seat: m.seat, cells: p?.kind === 'board' ? [p.from, p.to] : p ? [p.to] : [] };
  });
  page.board.render({
    board: shown.board, trail, checked: shown.in_check || [],
    motion: mv?.kind === 'board' ? { from: mv.from, to: mv.to } : null,
  });
  const turn = $('turn');
  if (ply === 0) {
    turn.textContent = 'The start position. First moves first.';
  } else {
    const m = page.moves[ply - 1];
    turn.replaceChildren();
    const who = document.createElement('span');
    who.className = 'seat-word';
    who.style.color = seatColour(m.seat, page.seats.indexOf(m.seat));
    who.textContent = m.seat;
    turn.append(`Move ${ply}: `, who, ` played ${m.short} (${m.move}).`);
  }
  $('current-note').textContent = NOTES[ply] || '';
  $('analyse').href = analysisHref({ variant: 'sannin' }, page.moves.map((m) => m.move), ply)
    + `&seat=${encodeURIComponent(page.board.viewSeat)}`;
  $('study').dataset.ply = String(ply);
  $('study').dataset.ready = '1';
}

function renderNotes() {
  const list = $('notes');
  if (!list.children.length) {
    list.replaceChildren(...NOTES.map((note, ply) => {
      const li = document.createElement('li');
      li.className = 'note-item';
      li.dataset.ply = String(ply);
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'mv';
      if (ply === 0) {
        b.textContent = 'Start';
      } else {
        const m = page.moves[ply - 1];
        const round = Math.ceil(ply / 3);
        b.textContent = `${round}${ply % 3 === 1 ? '.' : '…'} ${m.short}`;
        b.style.setProperty('--seat-colour', seatColour(m.seat, page.seats.indexOf(m.seat)));
        const who = document.createElement('span');
        who.className = 'who';
        who.style.setProperty('--seat-colour', seatColour(m.seat, page.seats.indexOf(m.seat)));
        who.textContent = m.seat;
        li.append(who);
      }
      b.addEventListener('click', () => goTo(ply));
      const p = document.createElement('p');
      p.textContent = note;
      li.prepend(b);
      li.append(p);
      return li;
    }));
  }
  for (const li of list.children) {
    const on = Number(li.dataset.ply) === page.ply;
    li.setAttribute('aria-current', on ? 'true' : 'false');
  }
  const current = list.querySelector('[aria-current="true"]');
  if (current && list.scrollHeight > list.clientHeight) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
      list.scrollTop = Math.max(0, top - 40);
    }
  }
  $('nav-first').disabled = page.ply === 0;
  $('nav-prev').disabled = page.ply === 0;
  $('nav-next').disabled = page.ply >= page.moves.length;
  $('nav-last').disabled = page.ply >= page.moves.length;
}

async function start() {
  let whole;
  let layout;
  try {
    whole = await studyPosition({ record: RECORD });
    layout = await api.layout('sannin');
  } catch (err) {
    showNotice(`The game cannot be loaded: ${err.message}`);
    return;
  }
  page.moves = whole.moves;
  page.positions.set(whole.moves.length, whole);
  page.seats = ['First', 'Middle', 'Last'];
  setPieceNames('sannin', layout.pieces);
  setKanji(layout.kanji);
  const params = new URLSearchParams(location.search);
  const seat = page.seats.includes(params.get('seat')) ? params.get('seat') : 'Middle';
  page.board = new BoardView($('board'), layout, { variant: 'sannin', seats: page.seats, viewSeat: seat, onActivate: () => {} });
  page.board.setCoordinates(true);
  const select = $('view-seat');
  select.replaceChildren(...page.seats.map((s) => new Option(s, s)));
  select.value = seat;
  const view = (s) => {
    page.board.setViewSeat(s);
    select.value = s;
    goTo(page.ply);
  };
  select.addEventListener('change', () => view(select.value));
  $('rotate').addEventListener('click', () => view(nextViewSeat(layout, page.seats, page.board.viewSeat)));
  $('nav-first').addEventListener('click', () => goTo(0));
  $('nav-prev').addEventListener('click', () => page.ply > 0 && goTo(page.ply - 1));
  $('nav-next').addEventListener('click', () => page.ply < page.moves.length && goTo(page.ply + 1));
  $('nav-last').addEventListener('click', () => goTo(page.moves.length));
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.('input, select, textarea, #board')) return;
    const to = { ArrowLeft: page.ply - 1, ArrowRight: page.ply + 1, Home: 0, End: page.moves.length }[e.key];
    if (to == null || to < 0 || to > page.moves.length) return;
    e.preventDefault();
    goTo(to);
  });
  const ply = Number(params.get('ply'));
  await goTo(Number.isInteger(ply) && ply >= 0 && ply <= page.moves.length ? ply : 0);
  $('study').setAttribute('aria-busy', 'false');
}

start();
