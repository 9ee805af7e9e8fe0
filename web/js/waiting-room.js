// A game that waits for players (open seats): the banner with the time left before it expires,
// and taking an open seat from the game page ("Take this seat"), kept like a seat link's token.

import { api } from './api.js';
import { state } from './game-state.js';
import { gameId } from './page-link.js';
import { rememberSeats } from './seat-store.js';
import { openAccountDialog } from './account.js';
import { showNotice } from './notices.js';
import { countdownWords } from './game-words.js';

const $ = (id) => document.getElementById(id);

let timer = null;

/** Whether the game still waits for a seat to be taken (nobody moves meanwhile). */
export function isWaiting(game) {
  return Boolean(game && !game.outcome && game.open_until_ms);
}

/** Shows or hides the banner, counting down to the expiry each second. */
export function renderWaiting(game) {
  const banner = $('waiting');
  if (!isWaiting(game)) {
    banner.hidden = true;
    clearInterval(timer);
    timer = null;
    return;
  }
  const tick = () => {
    const left = (state.game?.open_until_ms ?? 0) - Date.now();
    banner.textContent = 'Waiting for players — the game starts when every seat is taken'
      + ` (expires in ${countdownWords(left)})`;
  };
  tick();
  banner.hidden = false;
  if (!timer) timer = setInterval(tick, 1000);
}

/**
 * Takes the open `seat`: the token is kept for this game and the page loads again as that
 * seat's (a rated game first needs a login, which the dialog offers).
 */
export async function takeSeat(seat, button) {
  if (button) button.disabled = true;
  try {
    const answer = await api.takeSeat(gameId, seat);
    rememberSeats(gameId, { [answer.seat || seat]: answer.token });
    location.reload();
  } catch (err) {
    showNotice(`The seat was not taken: ${err.message}`);
    if (err.status === 401) openAccountDialog('login');
    if (button) button.disabled = false;
  }
}
