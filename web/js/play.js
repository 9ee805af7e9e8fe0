// The game page (/play/{id}): loads the game and its board, then wires the server's messages
// to the page's state and drawing, and the controls to the sockets. Legality comes from `legal_moves`.

import { api } from './api.js';
import { BoardView } from './board.js';
import { History } from './history.js';
import { gameId, tokens, hotseat } from './page-link.js';
import { state, receive, mySeats } from './game-state.js';
import { connect, heldSeats } from './connection.js';
import { initView, render } from './game-view.js';
import { tickClocks } from './players-view.js';
import {
  gamePicker, onCell, onPickHand, wireMoveInput, showTypedMoveRefusal, noteStateForTypedMove,
} from './move-input.js';
import { wireDrawOffer } from './draw-offer.js';
import { wireTakeback } from './takeback.js';
import { wireRematch } from './rematch.js';
import { goTo, wireControls } from './controls.js';
import { showBanner, showNotice } from './notices.js';
import { setPieceNames } from './moves.js';
import { initialViewSeat } from './orientation.js';
import { Pacer } from './pacing.js';
import { wireViewControls } from './view-controls.js';
import { wireDragMoves } from './drag-move.js';
import { setKanji } from './piece-set.js';
import { forgetSeat, noteGame } from './seat-store.js';
import { initInvite, renderInvite } from './invite.js';
import { initAccountBar, onAccountChange } from './account.js';
import { chatError, initChat, receiveChat, renderWriter } from './chat.js';
import { initReview } from './review.js';

const $ = (id) => document.getElementById(id);

let pacer = null; // shows the server's states one move at a time

async function start() {
  // The sockets say who the viewer is when they connect: after a login or logout the page loads
  // again, its chat and seats as the account's.
  initAccountBar().then(renderWriter);
  onAccountChange(() => location.reload());
  $('spectator').href = `/play/${encodeURIComponent(gameId)}`;
  $('spectator').textContent = `${location.origin}/play/${gameId}`;
  document.body.dataset.role = hotseat ? 'hotseat' : tokens.length ? 'player' : 'spectator';
  let first;
  try {
    first = await api.game(gameId);
  } catch (err) {
    $('game').setAttribute('aria-busy', 'false');
    showBanner(`This game cannot be loaded: ${err.message}`);
    $('connection').textContent = 'No game';
    return;
  }
  let layout;
  try {
    layout = await api.layout(first.variant);
  } catch (err) {
    showBanner(`The board of ${first.variant} cannot be loaded: ${err.message}`);
    return;
  }
  setPieceNames(first.variant, layout.pieces);
  setKanji(layout.kanji);
  state.history = new History(gameId, (ply) => {
    if (state.viewPly === ply) render();
  });
  const seats = first.seats.map((s) => s.seat);
  const board = new BoardView($('board'), layout, {
    variant: first.variant,
    seats,
    viewSeat: initialViewSeat(gameId, seats, tokens.map((t) => t.seat)),
    onActivate: onCell,
  });
  wireViewControls({
    board, layout, seats, gameId, spectator: !tokens.length,
    onPieceSet: () => {
      board.redrawPieces();
      render();
    },
  });
  pacer = new Pacer({
    show: (game) => {
      if (!receive(game)) return;
      render();
      renderInvite(state.game);
    },
    positionAt: (ply) => state.history.load(ply),
    isOwn: (seat) => mySeats().has(seat),
    catchUp: seats.length,
  });
  board.setCoordinates($('show-coords').checked);
  initView(board, { onPickHand, onGoTo: goTo, title: layout.title });
  initReview({ goTo });
  document.title = `polyshogi — ${layout.title || first.variant} ${gameId}`;
  if (tokens.length) noteGame(gameId, { title: layout.title || first.variant });
  initInvite(gameId, tokens.map((t) => t.seat));
  // Nobody to talk to on a hot-seat page, or for a player whose opponents are all bots.
  const held = new Set(tokens.map((t) => t.seat));
  const alone = tokens.length > 0 && first.seats.every((s) => held.has(s.seat) || s.kind === 'bot');
  $('chat-section').hidden = hotseat || alone;
  initChat({ player: tokens.length > 0, seatNames: seats });
  onState(first, null);
  $('game').setAttribute('aria-busy', 'false');
  connect(gameId, tokens, {
    onMessage,
    onStatus: (status) => {
      // After a reconnect nothing sent before is still on its way.
      if (status === 'open') state.awaiting = false;
      render();
    },
  });
  wireMoveInput();
  wireDragMoves(board, gamePicker, $('players'));
  wireDrawOffer();
  wireTakeback();
  wireRematch();
  wireControls({ board });
  setInterval(tickClocks, 250);
}

function onMessage(message, socket) {
  if (message.type === 'state' && message.game) {
    onState(message.game, socket);
  } else if (message.type === 'chat') {
    receiveChat(message.lines);
  } else if (message.type === 'error') {
    if (chatError(message.message || '')) return;
    state.awaiting = false;
    if (/token/i.test(message.message || '')) {
      state.badToken = true;
      // A refused token is not tried again on the next visit.
      if (socket.claimed) forgetSeat(gameId, socket.claimed);
      document.body.dataset.role = heldSeats().size ? document.body.dataset.role : 'spectator';
      showBanner(`The seat link was refused (${message.message}). You are watching as a spectator.`);
    } else if (!showTypedMoveRefusal(message.message || 'The server refused that move.')) {
      showNotice(message.message || 'The server refused that.');
    }
    render();
  }
}

function onState(game, socket) {
  noteStateForTypedMove(game);
  pacer.push(game);
  if (socket && state.badToken === false && socket.claimed && !socket.you && socket.open) {
    // A token whose connection the server treats as a spectator's.
    document.body.dataset.role = mySeats().size ? document.body.dataset.role : 'spectator';
    render();
  }
}

start();
