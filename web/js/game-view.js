// Drawing the game page from what the page knows: the board and its highlights, whose turn,
// the selection bar, the panels, the buttons' states, the connection line, the end screen; and
// the sound and the slide of each new move.

import { renderDrawOffer } from './draw-offer.js';
import { renderTakeback } from './takeback.js';
import { renderRematch } from './rematch.js';
import { parseMove } from './moves.js';
import { renderSelectionBar, selectionMarks } from './move-picker.js';
import { gamePicker } from './move-input.js';
import {
  state, seatKind, mySeats, actingSeat, resigningSeat, drawSeats, allianceAnswerer,
} from './game-state.js';
import { socketCount, anyOpen } from './connection.js';
import { hotseat } from './page-link.js';
import { renderPlayers, renderHands } from './players-view.js';
import { renderMoves } from './move-list.js';
import { showEnd } from './dialogs.js';
import { showNotice } from './notices.js';
import { playSound, soundFor } from './sound.js';
import { gameRulesText, loadRuleWords } from './rule-words.js';
import { isWaiting, renderWaiting } from './waiting-room.js';
import { modeWords } from './game-words.js';
import { renderReview } from './review.js';

const $ = (id) => document.getElementById(id);

let board = null;         // BoardView
let onPickHand = () => {};
let onGoTo = () => {};
let title = '';           // the game's name for players (the layout's `title`)
let endShown = false;     // the end screen opens once; closed, it stays closed
let drawn = null;         // { ply, over, checked } of the live game drawn last: what is new since

/** The board to draw on, and what a click on a piece in hand or on a move does. */
export function initView(boardView, handlers) {
  board = boardView;
  ({ onPickHand, onGoTo, title } = handlers);
  // The header says the rule options in words once the server has told them.
  loadRuleWords().then(render, () => {});
}

export function showCoordinates(show) {
  board?.setCoordinates(show);
}

/** The cells a move touches, marked as the last move. */
function moveCells(text) {
  const mv = parseMove(text || '');
  if (!mv) return [];
  if (mv.kind === 'board') return [mv.from, mv.to];
  if (mv.kind === 'drop') return [mv.to];
  if (mv.kind === 'illuminate') return [mv.from, ...mv.targets];
  return [];
}

/**
 * The moves marked on the board, oldest first: those since the viewer's own last move (that
 * move itself while it is the latest); for a spectator or a hot-seat page, the last round.
 */
function trailOf(game) {
  const { moves } = game;
  const own = hotseat ? null : [...mySeats()][0];
  let from;
  if (own) {
    const last = moves.findLastIndex((m) => m.seat === own);
    from = last >= 0 && last === moves.length - 1 ? last : last + 1;
  } else {
    const round = Math.max(1, game.seats.filter((s) => s.active !== false).length);
    from = Math.max(0, moves.length - round);
  }
  return moves.slice(from).map((m) => ({ seat: m.seat, cells: moveCells(m.move) }));
}

/**
 * What is new in the live game since it was last drawn: a sound for a new move or the end of
 * the game, and the move to animate (one ply on; none on the first drawing).
 */
function announce(game) {
  const before = drawn;
  drawn = { ply: game.moves.length, over: !!game.outcome, checked: game.in_check || [] };
  if (!before) return null;
  const moved = drawn.ply === before.ply + 1 ? game.moves[drawn.ply - 1] : null;
  const ended = drawn.over && !before.over;
  // A check sounds when it is given, not again while a seat waits for its turn to answer it.
  const check = drawn.checked.some((seat) => !before.checked.includes(seat));
  if (moved || ended) playSound(soundFor({ ended, check, capture: /[x!]/.test(moved?.move || '') }));
  const mv = moved && parseMove(moved.move);
  if (mv?.kind === 'board') return { from: mv.from, to: mv.to };
  if (mv?.kind === 'drop') return { from: null, to: mv.to };
  return null;
}

/** Draws the whole page again; every change of state ends here. */
export function render() {
  const { game } = state;
  if (!game || !board) return;
  const seat = actingSeat();
  const me = mySeats();
  const main = $('game');
  main.dataset.ply = String(game.moves.length);
  main.dataset.toMove = game.to_move || '';
  main.dataset.viewing = state.viewPly === null ? 'live' : String(state.viewPly);
  main.dataset.over = game.outcome ? '1' : '';
  main.dataset.acting = seat || '';
  // The analysis board at the position shown.
  const shownPly = state.viewPly ?? game.moves.length;
  $('analyse-link').href = `/analysis?game=${encodeURIComponent(game.id)}&ply=${shownPly}`;
  $('game-title').textContent = `${title || game.variant} · game ${game.id}${hotseat ? ' · hot-seat' : ''}`
    + ` · ${modeWords(game.rated)}`
    + (game.rules?.length ? ` · ${gameRulesText(game.variant, game.rules)}` : '');
  main.dataset.rated = game.rated ? '1' : '';
  main.dataset.waiting = isWaiting(game) ? '1' : '';
  renderWaiting(game);
  $('rules-page-link').href = `/rules/${encodeURIComponent(game.variant)}`;
  // An example in this game's own notation: the first legal move.
  const example = game.legal_moves?.[0];
  $('move-input').placeholder = example ? `Type a move, e.g. ${example}` : 'Type a move';

  renderTurn(seat, me);
  renderBoard(seat, announce(game));
  renderSelectionBar(gamePicker, Boolean(seat) && state.viewPly === null);
  renderPlayers(seat, onPickHand);
  renderMoves(onGoTo);
  renderReview();
  renderAllianceQuestion();
  renderDrawOffer();
  renderTakeback();
  renderRematch();
  renderConnection();
  const resigning = resigningSeat();
  $('resign').disabled = !resigning;
  $('resign').textContent = hotseat && resigning ? `Resign (${resigning})` : 'Resign';
  const offered = game.draw_offered_by || [];
  const drawing = drawSeats();
  $('offer-draw').disabled = !drawing.length;
  $('offer-draw').textContent = !drawing.length && offered.length && !game.outcome ? 'Draw offered'
    : offered.length ? `Accept the draw (${offered.join(', ')} offered)`
      : hotseat ? 'Agree a draw' : 'Offer a draw';
  $('move-submit').disabled = !seat || state.awaiting;
  // Once the game is over there is nothing to type; the rematch takes the controls' place.
  $('move-form').hidden = Boolean(game.outcome);
  $('play-controls').hidden = me.size === 0;
  if (game.outcome && !endShown) {
    endShown = true;
    showEnd(game);
  }
}

/** The line of a finished game: its outcome, which says itself when the game was aborted. */
export function endLine(outcome) {
  if (!outcome.aborted) return `Game over: ${outcome.text}`;
  // A game whose open seats nobody took says so itself: "Expired: …".
  return /^(game aborted|expired)/i.test(outcome.text) ? outcome.text : `Game aborted: ${outcome.text}`;
}

/**
 * The warning of a human seat's first turn in a game with a clock: without a first move in time
 * the server aborts the game (docs/API.md, "Clocks"). The time is the server's setting (60 s by
 * default), which the state does not carry, so the hint names no number.
 */
function firstMoveHint(game, seat) {
  const mover = game.to_move;
  if (!game.clock || !mover || seatKind(mover)?.kind !== 'human') return '';
  if (game.moves.some((m) => m.seat === mover)) return '';
  return seat ? '· make a first move soon, or the game is aborted'
    : `· the game is aborted if ${mover} does not make a first move in time`;
}

function renderTurn(seat, me) {
  const { game } = state;
  const turn = $('turn');
  let text;
  let hint = '';
  if (game.outcome) text = endLine(game.outcome);
  else if (isWaiting(game)) {
    const open = game.seats.filter((s) => s.kind === 'open').length;
    text = `Waiting for ${open === 1 ? 'one more player' : `${open} more players`}`;
  } else if (game.pending_alliance) {
    const p = game.pending_alliance;
    text = `Alliance proposed: ${p.allies.join(' + ')} against ${p.against}. Waiting for the answer.`;
  } else if (seat && hotseat) text = `${seat} to move — your turn on this device`;
  else if (seat) text = `Your move (${seat})`;
  else {
    const kind = seatKind(game.to_move);
    const bot = kind?.kind === 'bot' ? ` (bot${kind.level ? `, ${kind.level}` : ''})` : '';
    text = `${game.to_move} to move${bot}`;
    if (me.size && !hotseat) text += ' — waiting';
  }
  if (game.to_move && (game.in_check || []).includes(game.to_move)) text += ' · in check';
  if (state.awaiting) text += ' · sending…';
  if (!game.outcome && !game.pending_alliance && !isWaiting(game)) hint = firstMoveHint(game, seat);
  turn.textContent = text;
  if (hint) {
    const small = document.createElement('span');
    small.className = 'first-move-hint';
    small.textContent = hint;
    turn.append(' ', small);
  }
  turn.classList.toggle('mine', !!seat);
}

/**
 * The live position with what `seat` may do and the move `motion` animated, or an earlier one
 * (fetched when not known).
 */
function renderBoard(seat, motion) {
  const { game, viewPly } = state;
  let view;
  const reviewing = viewPly !== null;
  const viewing = $('viewing');
  board.container.classList.remove('unavailable');
  if (reviewing) {
    const shown = viewPly;
    const position = state.history.at(shown, (err) => {
      if (state.viewPly === shown) showNotice(`The position after move ${shown} could not be fetched: ${err.message}`);
    });
    const mv = game.moves[viewPly - 1];
    viewing.hidden = false;
    const what = viewPly === 0 ? 'the start position' : `the position after move ${viewPly} (${mv.seat} ${mv.short || mv.move})`;
    if (position) {
      $('viewing-text').textContent = `Showing ${what}.`;
      view = {
        board: position.board,
        trail: mv ? [{ seat: mv.seat, cells: moveCells(mv.move) }] : [],
        checked: position.in_check || [],
      };
      renderHands(position.hands, null, onPickHand);
    } else {
      $('viewing-text').textContent = `Fetching ${what}…`;
      board.container.classList.add('unavailable');
      view = { board: [] };
      renderHands({}, null, onPickHand);
    }
  } else {
    viewing.hidden = true;
    view = { board: game.board, trail: trailOf(game), checked: game.in_check || [], motion };
    if (seat && !state.awaiting) Object.assign(view, selectionMarks(state));
  }
  board.render(view);
}

function renderAllianceQuestion() {
  const { game } = state;
  const box = $('alliance-question');
  const seat = allianceAnswerer();
  if (!seat || game.outcome) {
    box.hidden = true;
    return;
  }
  const p = game.pending_alliance;
  $('alliance-question-text').textContent =
    `An alliance of ${p.allies.join(' + ')} against ${p.against} was detected. ${hotseat ? seat : 'You'} may accept or refuse it.`;
  box.hidden = false;
}

function renderConnection() {
  const box = $('connection');
  if (!socketCount()) return;
  const open = anyOpen();
  const me = [...mySeats()];
  box.dataset.state = open ? 'open' : 'connecting';
  const role = hotseat ? `hot-seat (${me.join(', ') || 'no seat'})` : me.length ? `playing ${me[0]}` : 'spectator';
  box.textContent = open ? `Connected · ${role}` : 'Reconnecting…';
}
