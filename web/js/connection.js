// This page's WebSockets to the game (reconnecting, see api.js): one per seat token, or one
// spectator's; which seat the server confirmed for each, and sending a message for a seat.

import { GameSocket } from './api.js';
import { showNotice } from './notices.js';

const sockets = []; // GameSocket, each with .you (the seat the server says it holds) and .claimed (its token's seat)

/**
 * Opens one socket per token ({ seat, token }), or a spectator's socket without tokens.
 * `onMessage(message, socket)` gets each server message once the socket's seat is noted.
 */
export function connect(gameId, tokens, { onMessage, onStatus }) {
  const open = (entry) => {
    const socket = new GameSocket(gameId, entry?.token || null, {
      onMessage: (message, sock) => {
        if (message.type === 'state' && message.game) sock.you = message.game.you || null;
        onMessage(message, sock);
      },
      onStatus,
    });
    socket.you = null;
    socket.claimed = entry?.seat || null;
    sockets.push(socket);
  };
  if (tokens.length) tokens.forEach(open);
  else open(null);
}

/** The seats this page may act for (confirmed by the server). */
export function heldSeats() {
  return new Set(sockets.map((s) => s.you).filter(Boolean));
}

export function socketCount() {
  return sockets.length;
}

export function anyOpen() {
  return sockets.some((s) => s.open);
}

function socketFor(seat) {
  return sockets.find((s) => s.you === seat && s.open) || sockets.find((s) => s.you === seat) || null;
}

/** Sends a message for `seat`; false (and a notice) when its socket is not open. */
export function send(seat, message) {
  const socket = socketFor(seat);
  if (!socket || !socket.send(message)) {
    showNotice('Not connected: the message was not sent. Reconnecting…');
    return false;
  }
  return true;
}

/**
 * Sends a message that is not a seat's action (a chat line): through a seat's socket when the
 * page holds one, else the spectator's. False when none is open.
 */
export function sendAny(message) {
  const socket = sockets.find((s) => s.you && s.open) || sockets.find((s) => s.open);
  return Boolean(socket && socket.send(message));
}
