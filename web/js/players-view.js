// The players panel: each seat with its player (name and rating) or kind, tags, connection and
// running clock, an open seat's "Take this seat", the pieces in hand (buttons that pick a drop),
// and the alliance line.

import { ordinal } from './places.js';
import { seatColour } from './board.js';
import { renderHand } from './hands-view.js';
import { state, mySeats } from './game-state.js';
import { hotseat, tokens } from './page-link.js';
import { profileHref } from './account.js';
import { ratingChange, ratingWithDeviation } from './game-words.js';
import { isWaiting, takeSeat } from './waiting-room.js';

const $ = (id) => document.getElementById(id);

function formatClock(ms) {
  if (ms == null) return '';
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/**
 * Each seat's pieces in hand; those `seat` may drop now are enabled, and a click on one calls
 * `onPick(letter)`.
 */
export function renderHands(hands, seat, onPick) {
  const { game, legal, selection, viewPly, awaiting } = state;
  for (const li of $('players').children) {
    const s = li.dataset.seat;
    renderHand(li.querySelector('.hand'), {
      seat: s,
      hand: hands?.[s],
      variant: game.variant,
      canDrop: (letter) => seat === s && viewPly === null && legal.drops.has(letter) && !awaiting,
      picked: (letter) => selection?.kind === 'hand' && selection.letter === letter && seat === s,
      onPick,
    });
  }
}

/** The player list (built once per seat count), the alliance line, and the live hands. */
export function renderPlayers(seat, onPickHand) {
  const { game } = state;
  const list = $('players');
  const me = mySeats();
  if (list.children.length !== game.seats.length) {
    list.replaceChildren(...game.seats.map((s, i) => {
      const li = document.createElement('li');
      li.className = 'player';
      li.dataset.seat = s.seat;
      li.style.setProperty('--seat-colour', seatColour(s.seat, i));
      li.innerHTML = '<header><span class="seat-name"></span><span class="who"></span><span class="kind"></span><span class="tags"></span>'
        + '<span class="clock" aria-label="clock"></span></header><div class="conn"></div><div class="hand" aria-label="pieces in hand"></div>';
      li.querySelector('.seat-name').textContent = s.seat;
      return li;
    }));
  }
  const placings = game.outcome?.placings || null;
  game.seats.forEach((s, i) => {
    const li = list.children[i];
    const out = s.active === false;
    // A game waiting for its players has nobody to move yet.
    const toMove = !game.outcome && !isWaiting(game) && game.to_move === s.seat;
    li.classList.toggle('to-move', toMove);
    li.classList.toggle('out', out);
    li.dataset.out = out ? '1' : '';
    li.dataset.kind = s.kind;
    li.querySelector('.kind').textContent = s.kind === 'bot' ? `bot${s.level ? ` (${s.level})` : ''}`
      : s.kind === 'open' ? '' : s.player ? '' : 'anonymous';
    renderWho(li.querySelector('.who'), s, game);
    const tags = [];
    if (me.has(s.seat)) tags.push(['you', hotseat ? 'this device' : 'you']);
    if (toMove) tags.push(['move', 'to move']);
    if ((game.in_check || []).includes(s.seat)) tags.push(['check', 'in check']);
    if (out && !placings) tags.push(['out', 'out']);
    if (placings && placings[s.seat] != null) tags.push(['place', `${ordinal(placings[s.seat])} place`]);
    if ((game.draw_offered_by || []).includes(s.seat)) tags.push(['draw', 'offers a draw']);
    const tagBox = li.querySelector('.tags');
    tagBox.replaceChildren(...tags.map(([cls, text]) => {
      const t = document.createElement('span');
      t.className = `tag ${cls}`;
      t.textContent = text;
      return t;
    }));
    const conn = li.querySelector('.conn');
    if (s.kind === 'human' && isWaiting(game) && !s.connected) {
      conn.textContent = 'not here yet';
      conn.classList.add('off');
    } else if (s.kind === 'human') {
      conn.textContent = s.connected ? 'online' : 'not connected';
      conn.classList.toggle('off', !s.connected);
    } else conn.textContent = '';
  });
  const alliance = $('alliance');
  if (game.alliance) {
    alliance.textContent = `Alliance: ${game.alliance.allies.join(' + ')} against ${game.alliance.against}`;
    alliance.classList.add('formed');
  } else {
    // Only Sannin shogi has alliances (Three Player Hex Shogi 91 has none to form).
    alliance.textContent = game.variant === 'sannin' ? 'No alliance' : '';
    alliance.classList.remove('formed');
  }
  alliance.hidden = !alliance.textContent;
  if (state.viewPly === null) renderHands(game.hands, seat, onPickHand);
  tickClocks();
}

/** Each seat's rating while the game was played (seat → rating), for the change at its end. */
const ratingsBefore = new Map();

/**
 * Who sits in a seat: the player's name (his profile) and rating ± deviation; for an open seat,
 * "waiting for a player" and, for a page holding no seat of this game, "Take this seat".
 */
function renderWho(box, s, game) {
  // The rating a player had while this page watched the game being played: once a rated game
  // ends, the server sends the new one, and the change is shown.
  if (s.player && !game.outcome) ratingsBefore.set(s.seat, s.player.rating);
  const key = s.kind === 'open' ? `open|${game.outcome ? 1 : 0}`
    : s.player ? `${s.player.name}|${s.player.rating}|${s.player.deviation}` : '';
  if (box.dataset.key === key) return;  // the same: the button keeps its focus
  box.dataset.key = key;
  box.replaceChildren();
  if (s.kind === 'open') {
    const waiting = document.createElement('span');
    waiting.className = 'open-seat';
    waiting.textContent = game.outcome ? 'nobody came' : 'waiting for a player';
    box.append(waiting);
    if (!game.outcome && !tokens.length) {
      const take = document.createElement('button');
      take.type = 'button';
      take.className = 'take-seat';
      take.textContent = 'Take this seat';
      take.setAttribute('aria-label', `Take the seat ${s.seat}`);
      take.addEventListener('click', () => takeSeat(s.seat, take));
      box.append(' ', take);
    }
    return;
  }
  if (!s.player) return;
  const name = document.createElement('a');
  name.className = 'player-name';
  name.href = profileHref(s.player.name);
  name.textContent = s.player.name;
  box.append(name);
  const rating = ratingWithDeviation(s.player);
  if (rating) {
    const r = document.createElement('span');
    r.className = 'rating';
    r.textContent = rating;
    r.title = s.player.provisional ? 'Rating ± deviation: provisional, few rated games yet' : 'Rating ± deviation';
    if (s.player.provisional) r.dataset.provisional = '1';
    box.append(' ', r);
    const change = game.rated && game.outcome ? ratingChange(ratingsBefore.get(s.seat), s.player.rating) : '';
    if (change && change !== '±0') {
      const c = document.createElement('span');
      c.className = 'rating-change';
      c.dataset.sign = change.startsWith('+') ? 'up' : 'down';
      c.textContent = change;
      box.append(' ', c);
    }
  }
}

/** The clocks, the running one counted down from when the state arrived (called 4× a second). */
export function tickClocks() {
  const { game } = state;
  if (!game) return;
  const list = $('players');
  const elapsed = performance.now() - state.receivedAt;
  game.seats.forEach((s, i) => {
    const clock = list.children[i]?.querySelector('.clock');
    if (!clock) return;
    if (s.clock_ms == null) {
      clock.hidden = true;
      return;
    }
    clock.hidden = false;
    // As on the server: a seat's clock runs only after its first move.
    const running = !game.outcome && !game.pending_alliance && game.to_move === s.seat && s.active !== false
      && game.moves.some((m) => m.seat === s.seat);
    const ms = running ? s.clock_ms - elapsed : s.clock_ms;
    const low = ms < lowTime(game.clock);
    clock.textContent = formatClock(ms);
    if (low) clock.insertAdjacentHTML('beforeend', '<span class="visually-hidden">, low time</span>');
    clock.classList.toggle('running', running);
    clock.classList.toggle('low', low);
    clock.dataset.running = running ? '1' : '';
  });
}

/** Low time: under 20 s, or under a tenth of the initial time in games shorter than 200 s. */
function lowTime(clock) {
  return Math.min(20000, (clock?.initial_ms ?? 0) / 10);
}
