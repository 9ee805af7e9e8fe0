// Finished games as a table (GET /api/games), shared by a player's profile and the archive: the
// date, the game, who played (names, places, rating changes), the result, the replay and record
// links; and the "Newer" / "Older" links between pages.

import { profileHref } from './account.js';
import { ordinal } from './places.js';
import { botWords, dateTimeWords, modeWords, ratingChange, variantTitle } from './game-words.js';

/** Whether a seat is `name`'s (names compare case-insensitively, as the server does). */
function isPlayer(seat, name) {
  return Boolean(name && seat.player?.name?.toLowerCase() === name.toLowerCase());
}

function cell(className, label, ...content) {
  const td = document.createElement('td');
  td.className = className;
  td.dataset.label = label;
  td.append(...content);
  return td;
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

/** A rating change in its colour: "+23" green, "−18" red. */
function changeSpan(seat) {
  const words = ratingChange(seat.rating_before, seat.rating_after);
  if (!words) return null;
  const span = el('span', 'rating-change', words);
  span.dataset.sign = words.startsWith('+') ? 'up' : words.startsWith('−') ? 'down' : 'same';
  span.title = `Rating ${seat.rating_before} → ${seat.rating_after}`;
  return span;
}

/** One seat in words: "First alice 1st +23", "Last Bot (Easy) 3rd". */
function seatLine(seat, levels, withResult) {
  const li = el('li', 'seat-line');
  li.dataset.seat = seat.seat;
  li.append(el('span', 'seat', seat.seat), ' ');
  if (seat.player) {
    const a = el('a', 'name', seat.player.name);
    a.href = profileHref(seat.player.name);
    li.append(a);
  } else if (seat.kind === 'bot') {
    li.append(el('span', 'bot', botWords(levels, seat.level)));
  } else {
    li.append(el('span', 'muted', 'Anonymous'));
  }
  if (withResult) {
    if (seat.place != null) li.append(' ', el('span', 'place', ordinal(seat.place)));
    const change = changeSpan(seat);
    if (change) li.append(' ', change);
  }
  return li;
}

/**
 * The games as a table in `box`. With `player` (a profile), the others are listed as opponents
 * and the player's own place and rating change get their columns.
 */
export function renderFinishedGames(box, { games, variants, levels, player = null }) {
  if (!games.length) {
    box.replaceChildren(el('p', 'muted empty-games', player ? `${player} has no finished game yet.` : 'No finished game.'));
    return;
  }
  const table = el('table', 'finished-games');
  const head = el('tr');
  const columns = ['Date', 'Game', player ? 'Opponents' : 'Players', 'Result'];
  if (player) columns.push('Place', 'Rating');
  columns.push('');
  for (const c of columns) head.append(el('th', null, c));
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  for (const game of games) {
    const tr = el('tr');
    tr.dataset.game = game.id;
    const date = el('time', null, dateTimeWords(game.finished_ms));
    date.dateTime = new Date(game.finished_ms).toISOString();
    const what = el('span', 'game-variant', variantTitle(variants, game.variant));
    const mode = el('span', `game-mode ${game.rated ? 'rated' : 'casual'}`, modeWords(game.rated));
    const own = player ? game.seats.find((s) => isPlayer(s, player)) : null;
    const others = el('ul', 'seat-lines');
    for (const seat of game.seats) if (seat !== own) others.append(seatLine(seat, levels, !player));
    tr.append(
      cell('g-date', 'Date', date),
      cell('g-game', 'Game', what, ' ', mode),
      cell('g-players', player ? 'Opponents' : 'Players', others),
      cell('g-result', 'Result', game.result || ''),
    );
    if (player) {
      tr.append(
        cell('g-place', 'Place', own?.place != null ? ordinal(own.place) : '–'),
        cell('g-rating', 'Rating', own ? changeSpan(own) || '–' : '–'),
      );
    }
    const replay = el('a', 'replay', 'Replay');
    replay.href = `/play/${encodeURIComponent(game.id)}`;
    const record = el('a', 'record', 'Download record');
    record.href = `/api/games/${encodeURIComponent(game.id)}/record`;
    record.download = `polyshogi-${game.variant}-${game.id}.psn`;
    tr.append(cell('g-links', '', replay, ' · ', record));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  box.replaceChildren(table);
}

/** "Newer" and "Older" links around page `page`; `hrefFor(n)` is page n's address. */
export function renderPager(box, { page, more, hrefFor }) {
  box.replaceChildren();
  if (page > 1) {
    const newer = el('a', 'button secondary newer', '‹ Newer');
    newer.href = hrefFor(page - 1);
    newer.rel = 'prev';
    box.append(newer);
  }
  if (page > 1 || more) box.append(el('span', 'muted page-number', `Page ${page}`));
  if (more) {
    const older = el('a', 'button secondary older', 'Older ›');
    older.href = hrefFor(page + 1);
    older.rel = 'next';
    box.append(older);
  }
  box.hidden = !box.children.length;
}
