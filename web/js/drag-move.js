// Moving by drag-and-drop (Pointer Events: mouse, pen and touch alike): press on one of one's
// movable pieces, or on a piece in hand, drag it (its ghost follows the pointer and its legal
// destinations light up), release on a destination to play there. A press released within a
// few pixels stays a click, handled by the board's and the hand's own click listeners. The page's
// `picker` (move-picker.js) says what may move and plays the move.

import { playSelectionTo } from './move-picker.js';

/** How far (in CSS pixels) a press must travel before it is a drag rather than a click. */
const DRAG_START_PX = 6;

let press = null;          // the press that may become a drag: { pointerId, x, y, from | letter, seat }
let drag = null;           // the drag under way: { ghost, from | letter, over }
let swallowClick = false;  // the click that follows a drag's release is not a click

/** Wires dragging to `board` (a BoardView) and to the pieces in hand under `hands` (an element). */
export function wireDragMoves(board, picker, hands) {
  const { state } = picker;
  board.container.addEventListener('pointerdown', (e) => {
    const cell = e.target.closest?.('[data-cell]')?.dataset.cell;
    if (cell && state.legal.from.has(cell) && mayStart(picker, e)) begin(e, { from: cell });
  });
  hands.addEventListener('pointerdown', (e) => {
    const button = e.target.closest?.('.hand button:not(:disabled)');
    if (!button || !mayStart(picker, e)) return;
    // The seat is checked again on release: the pieces of another seat's hand are never moved.
    begin(e, { letter: button.dataset.letter, seat: button.closest('[data-seat]')?.dataset.seat });
    // No text selection or focus ring while a mouse drags out of a button.
    if (e.pointerType === 'mouse') e.preventDefault();
  });
  // Any new press ends the swallowing: a touch drag is not always followed by a click.
  window.addEventListener('pointerdown', () => { swallowClick = false; }, true);
  window.addEventListener('pointermove', (e) => onMove(board, picker, e));
  window.addEventListener('pointerup', (e) => onRelease(board, picker, e));
  window.addEventListener('pointercancel', (e) => {
    if (e.pointerId === press?.pointerId) cancel(board, picker);
  });
  // Capture phase: the click that ends a drag reaches no cell or button.
  window.addEventListener('click', (e) => {
    if (!swallowClick) return;
    swallowClick = false;
    e.stopPropagation();
    e.preventDefault();
  }, true);
  // Escape drops the piece back.
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && drag) cancel(board, picker);
  });
}

/** A press may start a drag: the main button, a position this page moves in, no illumination being chosen. */
function mayStart(picker, e) {
  if (press || !e.isPrimary || e.button !== 0) return false;
  return picker.canMove() && picker.state.selection?.kind !== 'illuminate';
}

function begin(e, what) {
  press = { pointerId: e.pointerId, x: e.clientX, y: e.clientY, ...what };
}

function onMove(board, picker, e) {
  if (!press || e.pointerId !== press.pointerId) return;
  if (!drag) {
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_START_PX) return;
    if (!startDrag(board, picker)) {
      press = null;
      return;
    }
  }
  e.preventDefault();
  place(drag.ghost, e.clientX, e.clientY);
  const over = board.cellAt(e.clientX, e.clientY);
  if (over !== drag.over) {
    board.cells.get(drag.over)?.g.classList.remove('drag-over');
    board.cells.get(over)?.g.classList.add('drag-over');
    drag.over = over;
  }
}

/** The press became a drag: the piece is selected (its destinations shown) and lifted. */
function startDrag(board, picker) {
  if (!picker.canMove()) return false;
  const { state } = picker;
  const position = picker.position();
  let piece;
  if (press.from) {
    piece = position.board.find((p) => p.cell === press.from);
    state.selection = { kind: 'piece', cell: press.from };
  } else {
    if (press.seat !== position.to_move || !state.legal.drops.has(press.letter)) return false;
    piece = { seat: press.seat, letter: press.letter, promoted: false };
    state.selection = { kind: 'hand', letter: press.letter };
  }
  if (!piece) return false;
  picker.render();
  const ghost = board.ghost(piece);
  document.body.appendChild(ghost);
  drag = { ghost, over: null };
  place(ghost, press.x, press.y);
  board.container.classList.add('dragging');
  if (press.from) board.cells.get(press.from)?.g.classList.add('drag-origin');
  return true;
}

function place(ghost, x, y) {
  const half = ghost.offsetWidth / 2;
  ghost.style.transform = `translate(${Math.round(x - half)}px, ${Math.round(y - half)}px)`;
}

/**
 * The release: on a legal destination the move is played (the promotion question as for
 * clicks); released on its own cell the piece stays selected, as after a click; anywhere else
 * it goes back, unselected.
 */
function onRelease(board, picker, e) {
  if (!press || e.pointerId !== press.pointerId) return;
  const from = press.from;
  const dragged = !!drag;
  endDrag(board);
  press = null;
  if (!dragged) return; // a click: the click listeners have it
  swallowClick = true;
  const cell = board.cellAt(e.clientX, e.clientY);
  if (cell && picker.canMove()) {
    board.draggedTo = cell;
    if (playSelectionTo(picker, cell)) return;
    board.draggedTo = null;
  }
  if (!(from && cell === from)) picker.state.selection = null;
  picker.render();
}

function cancel(board, picker) {
  const dragged = !!drag;
  endDrag(board);
  press = null;
  if (dragged) {
    picker.state.selection = null;
    picker.render();
  }
}

function endDrag(board) {
  if (!drag) return;
  drag.ghost.remove();
  board.cells.get(drag.over)?.g.classList.remove('drag-over');
  board.container.classList.remove('dragging');
  board.container.querySelectorAll('.drag-origin').forEach((g) => g.classList.remove('drag-origin'));
  drag = null;
}
