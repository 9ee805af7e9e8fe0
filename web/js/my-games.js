// "My games" in the lobby: the games this browser created or holds a seat in (seat-store.js),
// newest first, each with its variant, this browser's seats and how the game stands now.

import { api } from './api.js';
import { myGames } from './seat-store.js';

/** Where a game stands, in words, for a browser holding `seats`. */
function standing(game, seats) {
  if (game.outcome) return game.outcome.aborted ? 'aborted' : `over: ${game.outcome.text}`;
  if (game.open_until_ms) return 'waiting for players';
  if (!game.to_move) return 'waiting for an alliance answer';
  if (seats.includes(game.to_move)) return 'your turn';
  return `${game.to_move} to move`;
}

/**
 * Puts the "My games" section at the top of `main` (replacing one shown before); nothing when
 * this browser has no game.
 */
export function showMyGames(main) {
  document.getElementById('my-games')?.remove();
  const games = myGames();
  if (!games.length) return;
  const section = document.createElement('section');
  section.id = 'my-games';
  section.className = 'panel my-games';
  section.setAttribute('aria-labelledby', 'my-games-h');
  const heading = document.createElement('h2');
  heading.id = 'my-games-h';
  heading.textContent = 'My games';
  const list = document.createElement('ul');
  list.className = 'my-games-list';
  for (const entry of games) {
    const li = document.createElement('li');
    li.dataset.game = entry.id;
    const a = document.createElement('a');
    a.href = `/play/${encodeURIComponent(entry.id)}`;
    a.textContent = `${entry.title || 'Game'} ${entry.id}`;
    const who = document.createElement('span');
    who.className = 'muted';
    who.textContent = entry.seats.length ? ` · you play ${entry.seats.join(', ')}` : ' · watching';
    const status = document.createElement('span');
    status.className = 'status';
    status.textContent = ' · …';
    li.append(a, who, status);
    list.append(li);
    api.game(entry.id).then(
      (game) => {
        status.textContent = ` · ${standing(game, entry.seats)}`;
        li.dataset.status = game.outcome ? (game.outcome.aborted ? 'aborted' : 'over') : 'playing';
      },
      () => {
        status.textContent = ' · not available';
        li.dataset.status = 'unavailable';
      },
    );
  }
  section.append(heading, list);
  main.prepend(section);
}
