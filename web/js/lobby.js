// The lobby (/): the open games (open-games.js), and the new-game form: a variant, its rule
// options, a clock, rated or casual and who sits where; then the creator goes to his seat.

import { api } from './api.js';
import { rulesInWords, valueWords } from './rule-words.js';
import { showMyGames } from './my-games.js';
import { noteGame, rememberCreated, rememberSeats } from './seat-store.js';
import { account, initAccountBar, onAccountChange } from './account.js';
import { showOpenGames } from './open-games.js';

const $ = (id) => document.getElementById(id);

let variants = [];
let levels = [];

/** What each seat may be, besides a bot level: the words and the `kind` sent. */
const SEAT_KINDS = [
  ['me', 'Me'],
  ['open', 'Open to anyone'],
  ['human', 'Friend by link'],
];

async function start() {
  initAccountBar().then(showRated);
  onAccountChange(showRated);
  showMyGames($('main'));
  // Back from a game the browser may show this page from its cache: the list is read again.
  window.addEventListener('pageshow', (e) => { if (e.persisted) showMyGames($('main')); });
  try {
    [variants, levels] = await Promise.all([api.variants(), api.levels()]);
  } catch (err) {
    $('lobby-status').textContent = `The server did not answer: ${err.message}`;
    $('lobby-status').classList.add('error');
    return;
  }
  if (!variants.length) {
    $('lobby-status').textContent = 'The server offers no variant to play.';
    return;
  }
  const select = $('variant');
  select.replaceChildren(...variants.map((v) => new Option(gameTitle(v), v.name)));
  select.disabled = false;
  select.addEventListener('change', showVariant);
  $('use-clock').addEventListener('change', () => { $('clock-fields').hidden = !$('use-clock').checked; });
  $('rules-reset').addEventListener('click', showRules);
  for (const radio of document.querySelectorAll('input[name="mode"]')) radio.addEventListener('change', onMode);
  $('rated').addEventListener('change', applyRated);
  $('create').addEventListener('submit', create);
  $('another').addEventListener('click', () => {
    $('created').hidden = true;
    $('create').hidden = false;
    $('variant').focus();
  });
  document.addEventListener('click', (e) => {
    const button = e.target.closest('button.copy');
    if (button) copyLink(button);
  });
  showVariant();
  showOpenGames(variants, levels);
  $('lobby-status').textContent = '';
  $('create-button').disabled = false;
}

/** A game's title as players know it: "Sannin shogi · 3 players", "Hex Shogi 91". Two players
 *  go without saying; three are said where the title does not say it. */
function gameTitle(v) {
  return v.seats.length === 2 || /player/i.test(v.title) ? v.title : `${v.title} · ${v.seats.length} players`;
}

function defaultLevel() {
  return (levels.find((l) => l.default) || levels[0])?.name;
}

function currentVariant() {
  return variants.find((v) => v.name === $('variant').value) || variants[0];
}

function mode() {
  return document.querySelector('input[name="mode"]:checked').value;
}

function showVariant() {
  const v = currentVariant();
  const note = $('variant-note');
  note.hidden = !v.note;
  note.textContent = v.note || '';
  const rulesLink = $('rules-link');
  rulesLink.href = `/rules/${encodeURIComponent(v.name)}`;
  rulesLink.textContent = `How to play ${v.title}`;
  showSeats();
  onMode();
  applyRated();
  showRules();
}

function showSeats() {
  const v = currentVariant();
  const box = $('seats');
  box.replaceChildren(...v.seats.map((seat, i) => {
    const row = document.createElement('div');
    row.className = 'seat-row';
    const id = `seat-${i}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = seat;
    const select = document.createElement('select');
    select.id = id;
    select.dataset.seat = seat;
    for (const [kind, words] of SEAT_KINDS) select.append(new Option(words, kind));
    // Every level plays the game's own best engine (the server maps it), so each suits the
    // seat count; the hint says how strong it is.
    for (const level of levels) {
      const option = new Option(`Bot: ${level.label}`, `bot:${level.name}`);
      option.title = level.strength;
      select.append(option);
    }
    // A sensible default: the first seat the creator's, the others bots (online); all human
    // (hot-seat).
    if (mode() === 'hotseat') select.value = 'human';
    else if (i === 0) select.value = 'me';
    else if (levels.length) select.value = `bot:${defaultLevel()}`;
    const hint = document.createElement('span');
    hint.className = 'level-hint';
    hint.id = `seat-hint-${i}`;
    const showHint = () => {
      const level = levels.find((l) => `bot:${l.name}` === select.value);
      hint.textContent = level ? level.strength : '';
      hint.hidden = !level;
    };
    select.addEventListener('change', () => {
      // One seat is the creator's: choosing "Me" here opens the seat that was his.
      if (select.value === 'me') {
        for (const other of box.querySelectorAll('select')) if (other !== select && other.value === 'me') other.value = 'open';
      }
      showHint();
    });
    showHint();
    row.append(label, select, hint);
    return row;
  }));
}

function onMode() {
  const hot = mode() === 'hotseat';
  for (const select of $('seats').querySelectorAll('select')) {
    // On one device every human seat is played here: nobody is invited, nobody joins.
    select.querySelector('option[value="human"]').textContent = hot ? 'Human on this device' : 'Friend by link';
    for (const kind of ['me', 'open']) select.querySelector(`option[value="${kind}"]`).disabled = hot;
    if (hot) {
      select.value = 'human';
      select.dispatchEvent(new Event('change'));
    }
  }
  if (hot && $('rated').checked) {
    $('rated').checked = false;
    applyRated();
  }
}

/** The Rated box: only for a logged-in player (the server refuses it otherwise). */
function showRated() {
  const logged = Boolean(account.name);
  $('rated').disabled = !logged;
  $('rated-note').hidden = logged;
  if (!logged && $('rated').checked) {
    $('rated').checked = false;
    applyRated();
  }
}

/**
 * A rated game is the creator's seat and open seats only (no bots, no links, one device per
 * player): ticking Rated sets the seats so and locks them; unticking frees them again.
 */
function applyRated() {
  const rated = $('rated').checked;
  const selects = [...$('seats').querySelectorAll('select')];
  if (rated) {
    if (mode() === 'hotseat') document.querySelector('input[name="mode"][value="links"]').checked = true;
    const mine = Math.max(0, selects.findIndex((s) => s.value === 'me'));
    selects.forEach((select, i) => {
      select.value = i === mine ? 'me' : 'open';
      select.dispatchEvent(new Event('change'));
    });
  }
  for (const select of selects) {
    for (const option of select.options) {
      if (option.value !== 'me' && option.value !== 'open') option.disabled = rated;
    }
  }
  document.querySelector('input[name="mode"][value="hotseat"]').disabled = rated;
}

function showRules() {
  const v = currentVariant();
  const box = $('rules');
  box.replaceChildren(...(v.options || []).map((opt, i) => {
    const row = document.createElement('div');
    row.className = 'rule-row';
    const id = `rule-${i}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = opt.label;
    let input;
    if (Array.isArray(opt.values) && opt.values.length) {
      input = document.createElement('select');
      for (const value of opt.values) {
        const words = valueWords(value);
        input.append(new Option(value === opt.default ? `${words} (default)` : words, value));
      }
      if (!opt.values.includes(opt.default)) input.prepend(new Option(`${valueWords(opt.default)} (default)`, opt.default));
    } else {
      input = document.createElement('input');
      input.type = 'number';
      input.min = '0';
      input.step = '1';
      input.inputMode = 'numeric';
    }
    input.id = id;
    input.dataset.key = opt.key;
    input.dataset.default = String(opt.default);
    input.value = String(opt.default);
    const hint = document.createElement('p');
    hint.className = 'explanation';
    hint.textContent = opt.explanation;
    const source = document.createElement('span');
    source.className = 'source';
    source.textContent = `Default: ${valueWords(opt.default)}. Source: ${opt.source}.`;
    hint.append(' ', source);
    input.addEventListener(input.tagName === 'SELECT' ? 'change' : 'input', () => {
      row.classList.toggle('changed', input.value.trim() !== input.dataset.default);
      summarizeRules();
    });
    row.append(label, input, hint);
    return row;
  }));
  $('rules-details').hidden = !(v.options || []).length;
  summarizeRules();
}

function chosenRules() {
  return [...$('rules').querySelectorAll('[data-key]')]
    .filter((input) => input.value.trim() !== input.dataset.default)
    .map((input) => `${input.dataset.key}=${input.value.trim()}`);
}

function summarizeRules() {
  const v = currentVariant();
  const words = rulesInWords(v, chosenRules());
  $('rules-summary').textContent = words.length ? `(${words.join('; ')})` : '(all defaults)';
}

function requestBody() {
  const seats = [...$('seats').querySelectorAll('select')].map((select) => {
    if (select.value.startsWith('bot:')) return { kind: 'bot', level: select.value.slice(4) };
    return { kind: select.value };
  });
  let clock = null;
  if ($('use-clock').checked) {
    const minutes = Number($('clock-minutes').value);
    const increment = Number($('clock-increment').value);
    if (!(minutes > 0) || !(increment >= 0)) throw new Error('clock: give a positive number of minutes and an increment of 0 or more seconds');
    clock = { initial_ms: Math.round(minutes * 60000), increment_ms: Math.round(increment * 1000) };
  }
  const body = { variant: currentVariant().name, rules: chosenRules(), clock, seats };
  if ($('rated').checked) body.rated = true;
  return body;
}

async function create(e) {
  e.preventDefault();
  const error = $('create-error');
  error.hidden = true;
  let body;
  try {
    body = requestBody();
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    return;
  }
  $('create-button').disabled = true;
  try {
    const answer = await api.createGame(body);
    if (mode() === 'hotseat') showCreated(answer, true);
    else openCreated(answer, body.seats.findIndex((s) => s.kind === 'me'));
  } catch (err) {
    error.textContent = `The game was not created: ${err.message}`;
    error.hidden = false;
  } finally {
    $('create-button').disabled = false;
  }
}

/**
 * Takes the creator to his own seat (the one sent as "Me", else the first human seat; a
 * spectator's page when there is none), remembering the creation answer there for the invite
 * panel: no token is ever put in the URL. A game with open seats waits there for its players.
 */
function openCreated(answer, meIndex) {
  rememberCreated(answer);
  const mine = (meIndex >= 0 && answer.seats[meIndex]?.token ? answer.seats[meIndex] : null)
    || answer.seats.find((s) => s.kind === 'human' && s.token);
  if (mine) rememberSeats(answer.id, { [mine.seat]: mine.token });
  noteGame(answer.id, { title: currentVariant().title });
  location.assign(`/play/${encodeURIComponent(answer.id)}`);
}

function absolute(link) {
  return new URL(link, location.origin).href;
}

function showCreated(answer, hotseat) {
  $('game-id').textContent = answer.id;
  const list = $('seat-links');
  list.replaceChildren(...answer.seats.map((s, i) => {
    const li = document.createElement('li');
    li.dataset.seat = s.seat;
    const name = document.createElement('strong');
    name.textContent = `${s.seat}: `;
    li.append(name);
    if (s.kind === 'bot') {
      const level = levels.find((l) => l.name === s.level);
      li.append(`bot, ${level ? level.label : s.level}`);
    } else if (s.kind === 'open') {
      li.append('open to anyone');
    } else if (s.link) {
      const a = document.createElement('a');
      a.href = s.link;
      a.id = `seat-link-${i}`;
      a.dataset.seatLink = s.seat;
      a.textContent = absolute(s.link);
      const copy = document.createElement('button');
      copy.type = 'button';
      copy.className = 'copy secondary';
      copy.dataset.copyTarget = a.id;
      copy.textContent = 'Copy';
      li.append(a, ' ', copy);
    } else {
      li.append('human');
    }
    return li;
  }));
  const spectator = $('spectator-link');
  spectator.href = answer.spectator_link;
  spectator.textContent = absolute(answer.spectator_link);
  const humans = {};
  for (const s of answer.seats) if (s.token) humans[s.seat] = s.token;
  const hot = $('hotseat-start');
  hot.hidden = !hotseat;
  if (hotseat) {
    $('hotseat-link').href = `/play/${encodeURIComponent(answer.id)}#hotseat=${encodeURIComponent(JSON.stringify(humans))}`;
  }
  $('create').hidden = true;
  $('created').hidden = false;
  (hotseat ? $('hotseat-link') : list.querySelector('a') || spectator).focus();
}

async function copyLink(button) {
  const target = $(button.dataset.copyTarget);
  if (!target) return;
  try {
    await navigator.clipboard.writeText(target.href);
    button.textContent = 'Copied';
  } catch {
    const range = document.createRange();
    range.selectNodeContents(target);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    button.textContent = 'Selected';
  }
  setTimeout(() => { button.textContent = 'Copy'; }, 1500);
}

start();
