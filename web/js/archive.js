// The archive (/games): finished games, newest first, filtered by variant and player from the
// query string (?variant=&player=&page=), page by page, each with its replay and record.

import { api } from './api.js';
import { initAccountBar } from './account.js';
import { renderFinishedGames, renderPager } from './game-rows.js';
import { variantTitle } from './game-words.js';

const $ = (id) => document.getElementById(id);

const query = new URLSearchParams(location.search);
const filters = {
  variant: query.get('variant') || '',
  player: (query.get('player') || '').trim(),
};
const page = Math.max(1, Number(query.get('page')) || 1);

/** This archive's address for page `n`, with the same filters. */
function hrefFor(n) {
  const q = new URLSearchParams();
  if (filters.variant) q.set('variant', filters.variant);
  if (filters.player) q.set('player', filters.player);
  if (n > 1) q.set('page', String(n));
  const text = q.toString();
  return text ? `/games?${text}` : '/games';
}

async function start() {
  initAccountBar();
  $('filter-player').value = filters.player;
  $('filter-clear').hidden = !filters.variant && !filters.player;
  let variants = [];
  let levels = [];
  try {
    [variants, levels] = await Promise.all([api.variants(), api.levels().catch(() => [])]);
  } catch { /* the games still show, by their keys */ }
  const select = $('filter-variant');
  select.append(...variants.map((v) => new Option(v.title, v.name)));
  select.value = filters.variant;
  // A changed game filter applies at once; the player's name when the form is sent.
  select.addEventListener('change', () => $('archive-filter').requestSubmit());
  const what = [filters.variant && variantTitle(variants, filters.variant), filters.player && `with ${filters.player}`]
    .filter(Boolean).join(' ');
  document.title = `polyshogi — finished games${what ? ` (${what})` : ''}`;
  try {
    const answer = await api.finishedGames({ ...filters, page });
    renderFinishedGames($('games'), { games: answer.games || [], variants, levels });
    renderPager($('pager'), { page: answer.page || page, more: Boolean(answer.more), hrefFor });
    $('games-status').hidden = true;
  } catch (err) {
    $('games-status').textContent = `The games cannot be loaded: ${err.message}`;
    $('games-status').classList.add('error');
  }
  $('archive').setAttribute('aria-busy', 'false');
  document.body.dataset.ready = '1';
}

start();
