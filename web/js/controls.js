// The page's other controls: resign, draw, the alliance answer, the record download, the
// pictures of the position shown, cell names, and going back through the game (the move list,
// its buttons and keys).

import { api } from './api.js';
import { state, resigningSeat, drawSeats, allianceAnswerer, markAnswered, currentPly } from './game-state.js';
import { send } from './connection.js';
import { render, showCoordinates } from './game-view.js';
import { currentMoveButton } from './move-list.js';
import { confirmAction } from './dialogs.js';
import { showNotice } from './notices.js';
import { gameId } from './page-link.js';
import { downloadDiagram, gameDiagramUrl } from './diagram-export.js';
import { hasKanji, pieceSet } from './piece-set.js';
import { saveFile } from './save-file.js';

const $ = (id) => document.getElementById(id);

/** Shows the position after `ply` plies; null (or the last ply) is the live game. */
export function goTo(ply) {
  const { game } = state;
  if (!game) return;
  const last = game.moves.length;
  if (ply !== null) ply = Math.max(0, Math.min(last, ply));
  state.viewPly = ply === null || ply === last ? null : ply;
  state.selection = null;
  render();
  currentMoveButton()?.scrollIntoView({ block: 'nearest' });
}

function onMovesKey(e) {
  const keys = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 };
  if (e.key in keys) {
    goTo(currentPly() + keys[e.key]);
    e.preventDefault();
    if (e.currentTarget.id === 'moves') currentMoveButton()?.focus();
  } else if (e.key === 'Home') {
    goTo(0);
    e.preventDefault();
  } else if (e.key === 'End') {
    goTo(null);
    e.preventDefault();
  }
}

function answerAlliance(accept) {
  const seat = allianceAnswerer();
  if (seat && send(seat, { type: 'alliance', accept })) {
    markAnswered(seat);
    render();
  }
}

async function exportRecord() {
  try {
    const text = await api.record(gameId);
    saveFile(new Blob([text], { type: 'text/plain' }), `polyshogi-${state.game?.variant || 'game'}-${gameId}.psn`);
  } catch (err) {
    showNotice(`The record could not be fetched: ${err.message}`);
  }
}

/**
 * Saves a picture (`format` 'svg' or 'png') of the position the page shows, as the viewer sees
 * it: from `board`'s seat, with the cell names if shown, in the chosen piece set.
 */
async function exportPicture(board, format) {
  const ply = currentPly();
  const url = gameDiagramUrl(gameId, ply, {
    seat: board.viewSeat,
    coordinates: $('show-coords').checked,
    pieces: hasKanji() ? pieceSet() : 'letters',
  });
  const buttons = [$('picture-svg'), $('picture-png')];
  buttons.forEach((b) => { b.disabled = true; });
  try {
    await downloadDiagram(url, `polyshogi-${gameId}-${ply}`, format);
  } catch (err) {
    showNotice(`The picture could not be made: ${err.message}`);
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

/** Wires the controls; `board` (the BoardView) says which seat the pictures are seen from. */
export function wireControls({ board }) {
  $('resign').addEventListener('click', async () => {
    const seat = resigningSeat();
    if (!seat) return;
    if (await confirmAction(`Resign for ${seat}? ${seat} leaves the game.`)) send(seat, { type: 'resign' });
  });
  $('offer-draw').addEventListener('click', () => {
    for (const seat of drawSeats()) send(seat, { type: 'offer_draw' });
  });
  $('alliance-accept').addEventListener('click', () => answerAlliance(true));
  $('alliance-refuse').addEventListener('click', () => answerAlliance(false));
  $('export').addEventListener('click', exportRecord);
  $('end-export').addEventListener('click', exportRecord);
  $('picture-svg').addEventListener('click', () => exportPicture(board, 'svg'));
  $('picture-png').addEventListener('click', () => exportPicture(board, 'png'));
  $('show-coords').addEventListener('change', (e) => showCoordinates(e.target.checked));
  $('nav-first').addEventListener('click', () => goTo(0));
  $('nav-prev').addEventListener('click', () => goTo(currentPly() - 1));
  $('nav-next').addEventListener('click', () => goTo(currentPly() + 1));
  $('nav-last').addEventListener('click', () => goTo(null));
  $('back-to-live').addEventListener('click', () => goTo(null));
  $('moves').addEventListener('keydown', onMovesKey);
  document.querySelector('.nav').addEventListener('keydown', onMovesKey);
}
