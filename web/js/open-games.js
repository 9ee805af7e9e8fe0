// The lobby's open games, live (lobby-socket.js): each game's variant, clock, rated or casual,
// its rule options and who sits where; one click on an open seat takes it and goes to the game.

import { api } from './api.js';
import { LobbySocket } from './lobby-socket.js';
import { rulesInWords } from './rule-words.js';
import { account, openAccountDialog, profileHref } from './account.js';
import { botWords, clockWords, modeWords, shortRating, variantTitle } from './game-words.js';
import { noteGame, rememberSeats, storedSeats } from './seat-store.js';

const $ = (id) => document.getElementById(id);
const FILTER = 'polyshogi.lobbyVariant';

let variants = [];
let levels = [];
let games = [];         // the server's latest list
let joining = false;    // a seat is being taken: no second click meanwhile

/** Starts the live list in the page's #open-games section, with the variants and bot levels. */
export function showOpenGames(variantList, levelList) {
  variants = variantList;
  levels = levelList;
  const filter = $('open-games-variant');
  filter.replaceChildren(new Option('All games', ''), ...variants.map((v) => new Option(v.title, v.name)));
  filter.value = localStorage.getItem(FILTER) || '';
  if (filter.selectedIndex < 0) filter.value = '';
  filter.addEventListener('change', () => {
    try { localStorage.setItem(FILTER, filter.value); } catch { /* not kept */ }
    render();
  });
  new LobbySocket({
    onGames: (list) => {
      games = list;
      render();
    },
    onStatus: (status) => {
      const line = $('open-games-status');
      line.dataset.state = status;
      line.textContent = status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
    },
  });
}

function render() {
  const variant = $('open-games-variant').value;
  const shown = games.filter((g) => !variant || g.variant === variant);
  const list = $('open-games-list');
  list.replaceChildren(...shown.map(gameRow));
  list.hidden = !shown.length;
  const empty = $('open-games-empty');
  empty.hidden = shown.length > 0;
  empty.textContent = games.length && variant
    ? `No open ${variantTitle(variants, variant)} game right now (${games.length} of other games).`
    : 'No open game right now. Create one below and choose "Open to anyone" for the seats others may take.';
  $('open-games').dataset.count = String(shown.length);
}

function gameRow(game) {
  const li = document.createElement('li');
  li.className = 'open-game';
  li.dataset.game = game.id;
  const mine = Object.keys(storedSeats(game.id)).length > 0;

  const head = document.createElement('div');
  head.className = 'og-head';
  const title = document.createElement('strong');
  title.className = 'og-variant';
  title.textContent = variantTitle(variants, game.variant);
  const clock = document.createElement('span');
  clock.className = 'og-clock';
  clock.textContent = clockWords(game.clock);
  clock.title = game.clock ? 'Minutes each + seconds added per move' : 'No clock';
  const mode = document.createElement('span');
  mode.className = `og-mode ${game.rated ? 'rated' : 'casual'}`;
  mode.textContent = modeWords(game.rated);
  head.append(title, clock, mode);
  const rules = rulesInWords(variants.find((v) => v.name === game.variant), game.rules || []);
  if (rules.length) {
    const r = document.createElement('span');
    r.className = 'og-rules';
    r.textContent = rules.join('; ');
    head.append(r);
  }

  const seats = document.createElement('ul');
  seats.className = 'og-seats';
  for (const s of game.seats) seats.append(seatItem(game, s, mine));

  const error = document.createElement('p');
  error.className = 'og-error error';
  error.setAttribute('role', 'alert');
  error.hidden = true;
  li.append(head, seats, error);
  if (mine) {
    const go = document.createElement('a');
    go.className = 'og-mine button secondary';
    go.href = `/play/${encodeURIComponent(game.id)}`;
    go.textContent = 'Your game';
    li.append(go);
  }
  return li;
}

function seatItem(game, s, mine) {
  const item = document.createElement('li');
  item.dataset.seat = s.seat;
  item.dataset.kind = s.kind;
  const name = document.createElement('span');
  name.className = 'og-seat';
  name.textContent = s.seat;
  item.append(name, ' ');
  if (s.kind === 'open') {
    if (mine) {
      item.append(waiting());
    } else {
      const join = document.createElement('button');
      join.type = 'button';
      join.className = 'join';
      join.textContent = 'Join';
      join.setAttribute('aria-label', `Join as ${s.seat}`);
      join.addEventListener('click', () => take(game, s.seat, item.closest('li.open-game')));
      item.append(join);
    }
  } else if (s.kind === 'bot') {
    const bot = document.createElement('span');
    bot.className = 'og-bot';
    bot.textContent = botWords(levels, s.level);
    item.append(bot);
  } else if (s.player) {
    const a = document.createElement('a');
    a.className = 'og-player';
    a.href = profileHref(s.player.name);
    a.textContent = s.player.name;
    item.append(a);
    const rating = shortRating(s.player);
    if (rating) {
      const r = document.createElement('span');
      r.className = 'og-rating';
      r.textContent = rating;
      r.title = s.player.provisional ? 'Provisional rating: few rated games yet' : 'Rating';
      item.append(' ', r);
    }
  } else {
    const anon = document.createElement('span');
    anon.className = 'muted';
    anon.textContent = 'Anonymous';
    item.append(anon);
  }
  return item;
}

function waiting() {
  const w = document.createElement('span');
  w.className = 'muted';
  w.textContent = 'waiting for a player';
  return w;
}

/** Takes `seat` of `game`: the token is kept like the creator's, then the game page opens. */
async function take(game, seat, row) {
  if (joining) return;
  const error = row.querySelector('.og-error');
  error.hidden = true;
  if (game.rated && account.known && !account.name) {
    error.textContent = 'Log in to sit in a rated game.';
    error.hidden = false;
    openAccountDialog('login');
    return;
  }
  joining = true;
  for (const b of row.querySelectorAll('button.join')) b.disabled = true;
  try {
    const answer = await api.takeSeat(game.id, seat);
    rememberSeats(game.id, { [answer.seat || seat]: answer.token });
    noteGame(game.id, { title: variantTitle(variants, game.variant) });
    location.assign(`/play/${encodeURIComponent(game.id)}`);
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    if (err.status === 401) openAccountDialog('login');
    for (const b of row.querySelectorAll('button.join')) b.disabled = false;
  } finally {
    joining = false;
  }
}
