// Picking a move on a board, for any page that takes moves (the game page, the analysis
// board): a click (or Enter) on a piece selects it and lights its legal destinations, a click on
// one plays there (asking about promotion where both are legal); a piece in hand is picked for a
// drop; an illumination's pieces are chosen one by one; the selection bar says what is picked.
//
// Each page hands these functions its `picker`:
//   { state: { legal, selection }, variant(), position(), canMove(), play(text), render(), refuse() }
// `state.legal` is moves.js's index of the legal moves, `state.selection` null or
// {kind:'piece', cell} | {kind:'hand', letter} | {kind:'illuminate', cell, chosen:Set};
// `position()` the shown position ({ board, to_move }); `play` plays a legal move's text;
// `refuse` says why a click cannot move now.

import { destinations, illuminationTargets, matchIllumination, pieceName } from './moves.js';
import { askPromotion } from './dialogs.js';

const $ = (id) => document.getElementById(id);

function play(picker, text) {
  picker.state.selection = null;
  picker.play(text);
}

/** Plays one of the moves to a cell: with and without promotion, the player chooses. */
async function chooseMove(picker, moves) {
  const promote = moves.find((m) => m.promote);
  const keep = moves.find((m) => !m.promote);
  if (promote && keep) {
    const answer = await askPromotion(picker.variant(), promote);
    if (answer === 'promote') play(picker, promote.text);
    else if (answer === 'keep') play(picker, keep.text);
    else picker.render();
    return;
  }
  play(picker, moves[0].text);
}

/**
 * Plays the selected piece, or the selected piece in hand, to `cell` when that is one of its
 * legal moves (asking about promotion first where both are legal). Returns whether it was.
 */
export function playSelectionTo(picker, cell) {
  const { legal, selection } = picker.state;
  if (selection?.kind === 'piece') {
    const moves = destinations(legal, selection.cell).get(cell);
    if (moves) {
      chooseMove(picker, moves);
      return true;
    }
  }
  if (selection?.kind === 'hand') {
    const drop = legal.drops.get(selection.letter)?.get(cell);
    if (drop) {
      play(picker, drop);
      return true;
    }
  }
  return false;
}

/** A click (or Enter) on a board cell: select a piece, play to a destination, choose targets. */
export function pickCell(picker, cell) {
  const { state } = picker;
  if (!picker.canMove()) {
    picker.refuse();
    return;
  }
  const { legal, selection } = state;
  if (selection?.kind === 'illuminate') {
    if (illuminationTargets(legal, selection.cell).has(cell)) {
      if (selection.chosen.has(cell)) selection.chosen.delete(cell);
      else selection.chosen.add(cell);
    } else if (cell === selection.cell) {
      state.selection = { kind: 'piece', cell };
    }
    picker.render();
    return;
  }
  if (playSelectionTo(picker, cell)) return;
  if (legal.from.has(cell) || legal.illuminations.has(cell)) {
    state.selection = selection?.kind === 'piece' && selection.cell === cell ? null : { kind: 'piece', cell };
  } else {
    state.selection = null;
  }
  picker.render();
}

/** A click on a piece in hand: select it for a drop, or drop the selection. */
export function pickHand(picker, letter) {
  const { state } = picker;
  state.selection = state.selection?.kind === 'hand' && state.selection.letter === letter ? null : { kind: 'hand', letter };
  picker.render();
}

/** What the board marks for a position that takes moves: the movable pieces and the selection's cells. */
export function selectionMarks({ legal, selection }) {
  const marks = { interactive: true, movable: new Set([...legal.from.keys(), ...legal.illuminations.keys()]) };
  if (selection?.kind === 'piece') {
    marks.selected = selection.cell;
    marks.dests = new Set(destinations(legal, selection.cell).keys());
  } else if (selection?.kind === 'hand') {
    marks.dests = new Set(legal.drops.get(selection.letter)?.keys() || []);
  } else if (selection?.kind === 'illuminate') {
    marks.selected = selection.cell;
    marks.targets = illuminationTargets(legal, selection.cell);
    marks.chosen = selection.chosen;
  }
  return marks;
}

function describePiece(picker, cell) {
  const piece = picker.position()?.board.find((p) => p.cell === cell);
  return piece ? `${piece.seat} ${pieceName(picker.variant(), piece.letter, piece.promoted)} on ${cell}` : cell;
}

/** The selection bar and the Pass button; `active`: the shown position takes moves now. */
export function renderSelectionBar(picker, active) {
  const { legal, selection } = picker.state;
  const bar = $('selection-bar');
  const illuminate = $('illuminate');
  const confirm = $('illuminate-confirm');
  $('pass').hidden = !(active && legal.pass);
  if (!active || !selection) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  illuminate.hidden = true;
  confirm.hidden = true;
  if (selection.kind === 'piece') {
    const count = destinations(legal, selection.cell).size;
    const canIlluminate = legal.illuminations.has(selection.cell);
    $('selection-text').textContent = `${describePiece(picker, selection.cell)}: ${count} destination${count === 1 ? '' : 's'}`
      + (canIlluminate ? ', or illuminate' : '');
    illuminate.hidden = !canIlluminate;
  } else if (selection.kind === 'hand') {
    const count = legal.drops.get(selection.letter)?.size || 0;
    $('selection-text').textContent = `Drop a ${pieceName(picker.variant(), selection.letter)}: choose one of ${count} cells`;
  } else if (selection.kind === 'illuminate') {
    const text = matchIllumination(legal, selection.cell, selection.chosen);
    const n = selection.chosen.size;
    $('selection-text').textContent = `Illumination from ${selection.cell}: choose the pieces to remove (${n} chosen)`
      + (text ? ` — ${text}` : '');
    confirm.hidden = false;
    confirm.disabled = !text;
  }
}

/** The selection bar's buttons (cancel, illuminate, confirm the illumination), Pass, and Escape. */
export function wireSelectionBar(picker) {
  const { state } = picker;
  $('selection-cancel').addEventListener('click', () => {
    state.selection = null;
    picker.render();
  });
  $('illuminate').addEventListener('click', () => {
    const { legal, selection } = state;
    if (selection?.kind !== 'piece') return;
    const options = legal.illuminations.get(selection.cell) || [];
    // With one possible illumination (e.g. `illumination=all`), its targets are chosen already.
    const chosen = options.length === 1 ? new Set(options[0].targets) : new Set();
    state.selection = { kind: 'illuminate', cell: selection.cell, chosen };
    picker.render();
  });
  $('illuminate-confirm').addEventListener('click', () => {
    const { legal, selection } = state;
    if (selection?.kind !== 'illuminate') return;
    const text = matchIllumination(legal, selection.cell, selection.chosen);
    if (text) play(picker, text);
  });
  $('pass').addEventListener('click', () => state.legal.pass && picker.canMove() && play(picker, state.legal.pass));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state.selection && !document.querySelector('dialog[open]')) {
      state.selection = null;
      picker.render();
    }
  });
}
