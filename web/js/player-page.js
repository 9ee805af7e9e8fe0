// A player's profile (/@/{name}): the name, since when a member, each variant's rating ±
// deviation with its games and a chart of its history, then his finished games, page by page.

import { api } from './api.js';
import { initAccountBar } from './account.js';
import { drawRatingChart } from './rating-chart.js';
import { renderFinishedGames, renderPager } from './game-rows.js';
import { dateWords, ratingWithDeviation, variantTitle } from './game-words.js';

const $ = (id) => document.getElementById(id);

/** The name in the address: /@/alice. */
const name = decodeURIComponent(location.pathname.replace(/^\/@\//, '').replace(/\/.*$/, ''));
const page = Math.max(1, Number(new URLSearchParams(location.search).get('page')) || 1);

async function start() {
  initAccountBar();
  document.title = `polyshogi — ${name}`;
  let player;
  let variants = [];
  let levels = [];
  try {
    [player, variants, levels] = await Promise.all([api.player(name), api.variants(), api.levels().catch(() => [])]);
  } catch (err) {
    $('profile-status').textContent = err.status === 404 ? `There is no player ${name}.` : `The player cannot be loaded: ${err.message}`;
    $('profile-status').classList.add('error');
    $('profile').setAttribute('aria-busy', 'false');
    return;
  }
  $('profile-status').hidden = true;
  $('profile-head').hidden = false;
  $('profile-name').textContent = player.name;
  document.title = `polyshogi — ${player.name}`;
  $('archive-link').href = `/games?player=${encodeURIComponent(player.name)}`;
  $('archive-link').textContent = `${player.name}'s games in the archive`;
  $('profile-since').textContent = `Member since ${dateWords(player.created_ms)}`;
  showRatings(player, variants);
  $('profile').setAttribute('aria-busy', 'false');
  await showGames(player, variants, levels);
  document.body.dataset.ready = '1';
}

function showRatings(player, variants) {
  $('ratings-section').hidden = false;
  const ratings = player.ratings || [];
  $('no-ratings').hidden = ratings.length > 0;
  $('ratings').replaceChildren(...ratings.map((r) => {
    const card = document.createElement('section');
    card.className = 'rating-card';
    card.dataset.variant = r.variant;
    card.dataset.rating = String(r.rating);
    const title = document.createElement('h3');
    title.textContent = variantTitle(variants, r.variant);
    const line = document.createElement('p');
    line.className = 'rating-line';
    const value = document.createElement('strong');
    value.className = 'rating-value';
    value.textContent = ratingWithDeviation(r);
    line.append(value);
    if (r.provisional) {
      const tag = document.createElement('span');
      tag.className = 'provisional';
      tag.textContent = 'provisional';
      tag.title = 'The rating settles after more rated games';
      line.append(' ', tag);
    }
    const games = document.createElement('span');
    games.className = 'muted rating-games';
    games.textContent = `${r.games} rated game${r.games === 1 ? '' : 's'}`;
    line.append(' · ', games);
    const chart = document.createElement('div');
    chart.className = 'rating-chart';
    const legend = document.createElement('p');
    legend.className = 'chart-legend';
    legend.textContent = 'The line: the rating after each rated game; the band: ± its deviation.';
    card.append(title, line, chart, legend);
    // Drawn once in the page, at the width it gets.
    queueMicrotask(() => drawRatingChart(chart, r.history || [], `${title.textContent}: rating after each rated game`));
    return card;
  }));
}

async function showGames(player, variants, levels) {
  $('games-section').hidden = false;
  $('games-status').textContent = 'Loading the games…';
  try {
    const answer = await api.finishedGames({ player: player.name, page });
    renderFinishedGames($('games'), { games: answer.games || [], variants, levels, player: player.name });
    renderPager($('pager'), {
      page: answer.page || page,
      more: Boolean(answer.more),
      hrefFor: (n) => (n > 1 ? `?page=${n}` : location.pathname),
    });
    $('games-status').textContent = '';
    $('games-status').hidden = true;
  } catch (err) {
    $('games-status').textContent = `The games cannot be loaded: ${err.message}`;
  }
}

start();
