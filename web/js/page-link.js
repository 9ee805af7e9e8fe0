// Who this page is: the game, and the seats it holds. A seat link brings its token in the URL
// fragment (`#seat=…&token=…`, or every seat of a hot-seat game in `#hotseat=<json>`), which
// browsers never send to a server; the page keeps it in localStorage and wipes it from the
// address bar at once. Without tokens the page is a spectator's.

import { rememberSeats, storedSeats } from './seat-store.js';

/** { seat: token } from the fragment; empty when it has none. */
function fragmentSeats() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const found = {};
  if (hash.has('hotseat')) {
    try {
      for (const [seat, token] of Object.entries(JSON.parse(hash.get('hotseat')))) if (token) found[seat] = token;
    } catch { /* ignore a garbled fragment */ }
  } else if (hash.get('seat') && hash.get('token')) {
    found[hash.get('seat')] = hash.get('token');
  }
  return found;
}

export const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');

const arriving = fragmentSeats();
if (Object.keys(arriving).length) {
  rememberSeats(gameId, arriving);
  history.replaceState(history.state, '', location.pathname);
}

/** [{ seat, token }]: every seat this browser holds in this game. */
export const tokens = Object.entries(storedSeats(gameId)).map(([seat, token]) => ({ seat, token }));
export const hotseat = tokens.length > 1;
