// The game's chat panel: the lines of this page's channel (players or spectators) from the
// WebSocket, a line to write (140 characters), its refusals inline, muting an author (kept in
// localStorage, his lines hidden) and hiding the whole chat. Spectators must log in to write.

import { account, openAccountDialog, profileHref } from './account.js';
import { sendAny } from './connection.js';
import { seatColour } from './board.js';

const $ = (id) => document.getElementById(id);
const MUTED = 'polyshogi.chatMuted';    // [author], the viewer's own mutes
const HIDDEN = 'polyshogi.chatHidden';  // "1" when the viewer hid the chat
const MAX = 140;

let lines = [];          // every line received, oldest first (muted ones too: unmuting shows them)
const seen = new Set();  // their keys: the backlog comes again after each reconnect
let seats = [];          // the game's seat names, for the authors' colours
let isPlayer = false;    // this page holds a seat: the players' chat
let pending = [];        // { text, at } the lines sent whose echo or refusal has not come back, oldest first

function readMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function writeMuted(list) {
  try { localStorage.setItem(MUTED, JSON.stringify(list)); } catch { /* kept for this visit only */ }
}

/** Sets the panel up: `player` when this page holds a seat; `seatNames` for the colours. */
export function initChat({ player, seatNames }) {
  isPlayer = player;
  seats = seatNames;
  $('chat-channel').textContent = player ? 'with the players' : 'with the spectators';
  $('chat-form').addEventListener('submit', (e) => {
    e.preventDefault();
    send();
  });
  $('chat-input').maxLength = MAX;
  $('chat-input').addEventListener('input', () => {
    $('chat-error').hidden = true;
    const left = MAX - $('chat-input').value.length;
    $('chat-count').textContent = left < 30 ? String(left) : '';
  });
  $('chat-login').addEventListener('click', () => openAccountDialog('login'));
  $('chat-toggle').addEventListener('click', () => {
    const hide = !$('chat-body').hidden;
    try { localStorage.setItem(HIDDEN, hide ? '1' : ''); } catch { /* not kept */ }
    showHidden(hide);
  });
  document.addEventListener('click', (e) => {
    if (!e.target.closest('.chat-menu, .chat-author')) closeMenu();
  });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') closeMenu(); });
  showHidden(localStorage.getItem(HIDDEN) === '1');
  renderWriter();
  renderLines();
}

function showHidden(hide) {
  $('chat-body').hidden = hide;
  $('chat-toggle').textContent = hide ? 'Show' : 'Hide';
  $('chat-toggle').setAttribute('aria-expanded', String(!hide));
  $('chat-section').dataset.hidden = hide ? '1' : '';
}

/** Who may write here: a seat's holder, or a logged-in spectator. */
export function renderWriter() {
  const may = isPlayer || Boolean(account.name);
  $('chat-form').hidden = !may;
  $('chat-login-line').hidden = may || !account.known;
}

/** The server's `chat` message: the backlog (after each connection) or one new line. */
export function receiveChat(newLines) {
  // The lines of this connection's channel have come (the backlog, possibly empty).
  $('chat-section').dataset.received = '1';
  let added = false;
  for (const line of newLines || []) {
    const key = `${line.ms}|${line.author}|${line.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(line);
    added = true;
    const echoed = pending.findIndex((p) => p.text === line.text);
    if (echoed >= 0) pending.splice(echoed, 1);
  }
  if (!added) return;
  lines.sort((a, b) => a.ms - b.ms);
  renderLines();
}

/**
 * Takes a server error meant for the chat (a line sent and not yet echoed, and words that
 * speak of writing): shown under the input. False when the error is not the chat's.
 */
export function chatError(message) {
  pending = pending.filter((p) => Date.now() - p.at <= 10000);
  if (!pending.length) return false;
  if (!/chat|slow down|character|text|line|empty|log in|control/i.test(message)) return false;
  // The server answers a connection's messages in order: this refusal is the oldest line's.
  pending.shift();
  showError(message);
  return true;
}

function showError(text) {
  const box = $('chat-error');
  box.textContent = text.charAt(0).toUpperCase() + text.slice(1);
  box.hidden = false;
}

function send() {
  const input = $('chat-input');
  const text = input.value.trim();
  $('chat-error').hidden = true;
  if (!text) return;
  if (text.length > MAX) {
    showError(`A line holds at most ${MAX} characters.`);
    return;
  }
  if (!sendAny({ type: 'chat', text })) {
    showError('Not connected: the line was not sent.');
    return;
  }
  pending.push({ text, at: Date.now() });
  input.value = '';
  $('chat-count').textContent = '';
}

function renderLines() {
  const muted = new Set(readMuted());
  const list = $('chat-lines');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  const shown = lines.filter((l) => !muted.has(l.author));
  list.replaceChildren(...shown.map(lineItem));
  $('chat-empty').hidden = shown.length > 0;
  if (atBottom || list.dataset.scrolled !== '1') list.scrollTop = list.scrollHeight;
  list.dataset.scrolled = '1';
  const mutedBox = $('chat-muted');
  mutedBox.replaceChildren();
  mutedBox.hidden = !muted.size;
  if (muted.size) {
    mutedBox.append('Muted: ');
    [...muted].forEach((author, i) => {
      if (i) mutedBox.append(', ');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'link unmute';
      b.dataset.author = author;
      b.textContent = `${author} (unmute)`;
      b.addEventListener('click', () => setMuted(author, false));
      mutedBox.append(b);
    });
  }
}

function lineItem(line) {
  const li = document.createElement('li');
  li.dataset.author = line.author;
  const when = new Date(line.ms);
  li.title = when.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  const author = document.createElement('button');
  author.type = 'button';
  author.className = 'chat-author';
  author.textContent = line.author;
  const index = seats.indexOf(line.seat);
  if (index >= 0) author.style.color = seatColour(line.seat, index);
  author.setAttribute('aria-haspopup', 'menu');
  author.addEventListener('click', () => openMenu(author, line));
  const text = document.createElement('span');
  text.className = 'chat-text';
  text.textContent = line.text;
  li.append(author, ' ', text);
  return li;
}

function closeMenu() {
  document.querySelector('.chat-menu')?.remove();
}

/** The author's menu: his profile (when he is a player with an account) and Mute. */
function openMenu(anchor, line) {
  const open = document.querySelector('.chat-menu');
  closeMenu();
  if (open?.dataset.author === line.author) return;
  const menu = document.createElement('div');
  menu.className = 'chat-menu';
  menu.setAttribute('role', 'menu');
  menu.dataset.author = line.author;
  // An anonymous seat writes under its seat's name: no profile to show.
  if (line.author !== line.seat) {
    const profile = document.createElement('a');
    profile.href = profileHref(line.author);
    profile.textContent = 'Profile';
    profile.setAttribute('role', 'menuitem');
    menu.append(profile);
  }
  if (line.author !== account.name) {
    const mute = document.createElement('button');
    mute.type = 'button';
    mute.className = 'chat-mute';
    mute.setAttribute('role', 'menuitem');
    mute.textContent = `Mute ${line.author}`;
    mute.addEventListener('click', () => {
      setMuted(line.author, true);
      closeMenu();
    });
    menu.append(mute);
  }
  if (!menu.children.length) return;
  anchor.after(menu);
  menu.querySelector('a, button').focus();
}

function setMuted(author, mute) {
  const list = readMuted().filter((a) => a !== author);
  if (mute) list.push(author);
  writeMuted(list);
  renderLines();
}
