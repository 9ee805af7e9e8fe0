// The rematch once the game is over (docs/API.md, "Rematch"): the Rematch button of the end
// screen and of the play controls, the others' offer with Accept and Decline, the word that an
// offer was turned down, and the way into the new game.
//
// Into the new game: a page that holds a seat and sees `rematch.game` appear while it is open
// goes there at once (every human agreed, its own seat included), each old seat's token kept for
// its `next_seat`. A page opened on a game whose rematch had already started only shows "Go to
// the rematch", as lichess does: an old game reached from "My games", a shared link or the back
// button stays readable instead of throwing its reader into the next game. Spectators always get
// the link.

import { state, mySeats } from './game-state.js';
import { send } from './connection.js';
import { tokens } from './page-link.js';
import { rememberSeats } from './seat-store.js';
import { showNotice } from './notices.js';
import { playSound } from './sound.js';

const $ = (id) => document.getElementById(id);

/** The offers and the new game of the last drawing (null before the first): what is new since. */
let seen = null;
/** This page turned the offer down itself: the offer's end needs no word then. */
let declining = false;
/** That the last offer was turned down; said under the buttons until the next offer. */
let declinedNote = '';
/** The new game whose seats are stored already, and whether the page is on its way there. */
let storedFor = null;
let leaving = false;

/** The finished game's rematch, or null while the game goes on. */
function rematchOf(game) {
  return game?.outcome ? game.rematch || null : null;
}

/** Only the human seats are asked: bots agree at once. */
function humanSeats(game) {
  return game.seats.filter((s) => s.kind === 'human').map((s) => s.seat);
}

/** "Black", "Black and White", "First, Middle and Last". */
function words(seats) {
  return seats.length < 2 ? seats.join('') : `${seats.slice(0, -1).join(', ')} and ${seats[seats.length - 1]}`;
}

/** The seats of this page that have not asked yet: a press of Rematch asks for them all. */
function askingSeats() {
  const r = rematchOf(state.game);
  if (!r || r.game) return [];
  const mine = mySeats();
  return humanSeats(state.game).filter((s) => mine.has(s) && !r.offered_by.includes(s));
}

function ask() {
  const seats = askingSeats();
  if (!seats.length) return;
  // Until the server's answer redraws them, a second press sends nothing twice.
  $('rematch').disabled = true;
  $('end-rematch').disabled = true;
  $('rematch-accept').disabled = true;
  for (const seat of seats) send(seat, { type: 'rematch' });
}

function decline() {
  const [seat] = askingSeats();
  if (!seat) return;
  declining = true;
  send(seat, { type: 'decline_rematch' });
}

/** Keeps this page's tokens for their seats in the new game (once): they open those seats. */
function storeNewSeats(r) {
  if (storedFor === r.game) return;
  storedFor = r.game;
  const mine = mySeats();
  for (const { seat, token } of tokens) {
    const there = r.next_seat?.[seat];
    if (mine.has(seat) && there) rememberSeats(r.game, { [there]: token });
  }
}

export function wireRematch() {
  for (const id of ['rematch', 'end-rematch', 'rematch-accept']) $(id).addEventListener('click', ask);
  for (const id of ['rematch-decline', 'end-rematch-decline']) $(id).addEventListener('click', decline);
}

export function renderRematch() {
  const { game } = state;
  if (!game) return;
  const r = rematchOf(game);
  const mine = mySeats();
  const humans = humanSeats(game);
  const player = humans.some((s) => mine.has(s));
  const offered = r?.offered_by || [];
  const others = offered.filter((s) => !mine.has(s));
  const asking = askingSeats();
  const newGame = r?.game || null;

  if (seen && r && !newGame) {
    if (seen.offered.length && !offered.length) {
      // Every request withdrawn without a new game: someone declined.
      if (!declining && player) {
        declinedNote = seen.offered.some((s) => mine.has(s))
          ? 'Your rematch offer was declined.' : 'The rematch offer was declined.';
        showNotice(declinedNote);
      }
      declining = false;
    }
    // A new offer for this page to answer is heard, like a move.
    if (asking.length && others.some((s) => !seen.offered.includes(s))) playSound('offer');
  }
  if (offered.length) declinedNote = '';
  if (newGame && player) storeNewSeats(r);
  const arrived = newGame && seen && !seen.game;
  seen = { offered, game: newGame };
  if (arrived && player && !leaving) {
    leaving = true;
    location.assign(`/play/${encodeURIComponent(newGame)}`);
  }

  // What the buttons say: ask, accept, or wait for the others.
  const offerText = `${words(others)} ${others.length > 1 ? 'offer' : 'offers'} a rematch.`;
  let status = declinedNote;
  let label = 'Rematch';
  if (r && player && !newGame) {
    if (!asking.length) {
      label = 'Rematch offered…';
      const awaited = humans.filter((s) => !offered.includes(s));
      const away = awaited.filter((s) => !game.seats.find((x) => x.seat === s)?.connected);
      status = awaited.length ? `Waiting for ${words(awaited)}${away.length ? ` (${words(away)} not connected)` : ''}.` : '';
    } else if (others.length) {
      label = 'Accept the rematch';
      status = offerText;
    }
  }
  const canAsk = Boolean(r && player && !newGame);
  for (const id of ['rematch', 'end-rematch']) {
    const button = $(id);
    button.textContent = label;
    button.disabled = !asking.length;
    // Glows while another player's offer waits, as lichess's does.
    button.classList.toggle('offered', asking.length > 0 && others.length > 0);
  }
  $('rematch-row').hidden = !canAsk;
  $('rematch-status').textContent = status;
  $('game-buttons').hidden = Boolean(game.outcome) && player;

  // The others' offer above the board, for when the end screen is closed.
  const answering = canAsk && asking.length > 0 && others.length > 0;
  $('rematch-offer').hidden = !answering;
  $('rematch-accept').disabled = false;
  if (answering) $('rematch-offer-text').textContent = offerText;

  // The new game: a link for whoever did not go there at once.
  const href = newGame ? `/play/${encodeURIComponent(newGame)}` : '#';
  const held = [...mine].filter((s) => r?.next_seat?.[s]);
  const where = held.length === 1 ? ` You play ${r.next_seat[held[0]]} in it.` : '';
  $('rematch-started').hidden = !newGame;
  $('rematch-started-text').textContent = `The rematch has started.${where}`;
  $('rematch-go').href = href;

  // The end screen: the same choices.
  $('end-rematch-box').hidden = !(canAsk || newGame);
  $('end-rematch').hidden = !canAsk;
  $('end-rematch-decline').hidden = !answering;
  $('end-rematch-status').textContent = newGame ? `The rematch has started.${where}` : status;
  $('end-rematch-status').hidden = !$('end-rematch-status').textContent;
  $('end-rematch-go').hidden = !newGame;
  $('end-rematch-go').href = href;
}
