// The account bar in every page's header: "Log in" and "Register" (one small dialog with a
// name and a password, the server's refusal shown in it), or the player's name and "Log out".

import { api } from './api.js';

/** Who is logged in: `name` is null when nobody is; `known` once the server has said. */
export const account = { name: null, known: false };

const listeners = [];
let dialog = null;
let mode = 'login';   // what the dialog does: 'login' or 'register'

/** Calls `fn(name)` after each login or logout in this page. */
export function onAccountChange(fn) {
  listeners.push(fn);
}

/**
 * Puts the bar into the page's header and asks the server who is logged in; resolves to the
 * name (null when logged out, or when the server did not answer: the page works without).
 */
export async function initAccountBar() {
  const bar = document.createElement('div');
  bar.id = 'account';
  bar.className = 'account-bar';
  document.querySelector('header.top')?.append(bar);
  try {
    account.name = (await api.account()).name ?? null;
  } catch {
    account.name = null;
  }
  account.known = true;
  renderBar();
  return account.name;
}

function renderBar() {
  const bar = document.getElementById('account');
  if (!bar) return;
  bar.dataset.name = account.name || '';
  if (account.name) {
    const me = document.createElement('a');
    me.id = 'account-name-link';
    me.className = 'account-name';
    me.href = profileHref(account.name);
    me.textContent = account.name;
    bar.replaceChildren(me, button('account-logout', 'Log out', logout));
  } else {
    bar.replaceChildren(
      button('account-login', 'Log in', () => openAccountDialog('login')),
      button('account-register', 'Register', () => openAccountDialog('register')),
    );
  }
}

/** A player's profile page. */
export function profileHref(name) {
  return `/@/${encodeURIComponent(name)}`;
}

function button(id, text, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = id;
  b.className = 'secondary';
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}

async function logout() {
  try {
    await api.logout();
  } catch { /* the cookie is gone or the server is away: either way, logged out here */ }
  changed(null);
}

function changed(name) {
  account.name = name;
  renderBar();
  for (const fn of listeners) fn(name);
}

function buildDialog() {
  dialog = document.createElement('dialog');
  dialog.id = 'account-dialog';
  dialog.className = 'account-dialog';
  dialog.setAttribute('aria-labelledby', 'account-dialog-h');
  dialog.innerHTML = `
    <form id="account-form" novalidate>
      <h2 id="account-dialog-h"></h2>
      <label for="account-name">Name</label>
      <input id="account-name" name="name" autocomplete="username" autocapitalize="off" spellcheck="false" maxlength="20" required>
      <label for="account-password">Password</label>
      <input id="account-password" name="password" type="password" maxlength="200" required>
      <p id="account-hint" class="muted small"></p>
      <p id="account-error" class="error" role="alert" hidden></p>
      <div class="row">
        <button type="submit" id="account-submit"></button>
        <button type="button" id="account-cancel" class="secondary">Cancel</button>
      </div>
      <p class="small account-switch"><span id="account-switch-text"></span>
        <button type="button" id="account-switch" class="link"></button></p>
    </form>`;
  document.body.append(dialog);
  dialog.querySelector('#account-form').addEventListener('submit', submit);
  dialog.querySelector('#account-cancel').addEventListener('click', () => dialog.close());
  dialog.querySelector('#account-switch').addEventListener('click', () => showMode(mode === 'login' ? 'register' : 'login'));
}

function showMode(next) {
  mode = next;
  const login = mode === 'login';
  dialog.querySelector('#account-dialog-h').textContent = login ? 'Log in' : 'Register';
  dialog.querySelector('#account-submit').textContent = login ? 'Log in' : 'Register';
  dialog.querySelector('#account-password').autocomplete = login ? 'current-password' : 'new-password';
  dialog.querySelector('#account-hint').textContent = login ? ''
    : 'A name of 3 to 20 letters, digits, _ or -, starting with a letter; a password of at least 8 characters.';
  dialog.querySelector('#account-hint').hidden = login;
  dialog.querySelector('#account-switch-text').textContent = login ? 'No account yet?' : 'Already registered?';
  dialog.querySelector('#account-switch').textContent = login ? 'Register' : 'Log in';
  dialog.querySelector('#account-error').hidden = true;
}

/** Opens the dialog to log in or to register (`which`). */
export function openAccountDialog(which = 'login') {
  if (!dialog) buildDialog();
  showMode(which);
  if (!dialog.open) dialog.showModal();
  dialog.querySelector('#account-name').focus();
}

async function submit(e) {
  e.preventDefault();
  const name = dialog.querySelector('#account-name').value.trim();
  const password = dialog.querySelector('#account-password').value;
  const error = dialog.querySelector('#account-error');
  const send = dialog.querySelector('#account-submit');
  error.hidden = true;
  if (!name || !password) {
    error.textContent = 'Give a name and a password.';
    error.hidden = false;
    return;
  }
  send.disabled = true;
  try {
    const answer = mode === 'login' ? await api.login(name, password) : await api.register(name, password);
    dialog.querySelector('#account-password').value = '';
    dialog.close();
    changed(answer.name ?? name);
  } catch (err) {
    // The server's own words: "wrong name or password", "the name `alice` is taken", "name: …".
    error.textContent = err.message;
    error.hidden = false;
  } finally {
    send.disabled = false;
  }
}
