// The invite panel of the game page, for the browser that created the game: each other human
// seat's link and the spectator link, each with a Copy button. It opens by itself while nobody
// has moved, and the "Invite" ("Share" against bots) button in the header brings it back until
// the game is over.

import { createdAnswer } from './seat-store.js';

const $ = (id) => document.getElementById(id);

let panel = null;
let reopen = null;
let shownOnce = false;

/** Builds the panel when this browser created game `id`; `held` are the seats it plays. */
export function initInvite(id, held) {
  const answer = createdAnswer(id);
  if (!answer) return;
  const friends = answer.seats.filter((s) => s.kind === 'human' && s.link && !held.includes(s.seat));
  const open = answer.seats.some((s) => s.kind === 'open');
  panel = document.createElement('section');
  panel.id = 'invite';
  panel.className = 'invite';
  panel.hidden = true;
  panel.setAttribute('aria-labelledby', 'invite-h');
  const heading = document.createElement('h2');
  heading.id = 'invite-h';
  heading.textContent = friends.length ? 'Invite your opponents' : open ? 'Share the game' : 'Invite spectators';
  const intro = document.createElement('p');
  intro.className = 'small';
  intro.textContent = friends.length
    ? 'Send each friend the link of his seat: whoever opens it plays that seat. Keep them to yourself otherwise.'
    : open ? 'The open seats are in the lobby for anyone to take; whoever opens the game\'s link may take one too.'
      : 'The other seats are bots. Anyone may watch with the spectator link.';
  const list = document.createElement('ul');
  list.className = 'invite-links';
  for (const s of friends) list.append(linkRow(`${s.seat}`, s.link, s.seat));
  list.append(linkRow('Spectators', answer.spectator_link, 'spectator'));
  const hide = document.createElement('button');
  hide.type = 'button';
  hide.className = 'secondary';
  hide.id = 'invite-hide';
  hide.textContent = 'Hide';
  hide.addEventListener('click', () => show(false));
  panel.append(heading, intro, list, hide);
  document.querySelector('.board-area').prepend(panel);

  reopen = document.createElement('button');
  reopen.type = 'button';
  reopen.id = 'invite-open';
  reopen.className = 'secondary invite-open';
  // With nobody to invite, the button only shares the spectator link.
  reopen.textContent = friends.length ? 'Invite' : 'Share';
  reopen.setAttribute('aria-controls', 'invite');
  reopen.addEventListener('click', () => show(true));
  $('connection').before(reopen);
  panel.dataset.friends = String(friends.length);
}

/** One link with its Copy button; `key` names it for tests and screen readers. */
function linkRow(label, link, key) {
  const li = document.createElement('li');
  li.dataset.invite = key;
  const name = document.createElement('label');
  name.textContent = label;
  const input = document.createElement('input');
  input.readOnly = true;
  input.value = new URL(link, location.origin).href;
  input.addEventListener('focus', () => input.select());
  name.append(input);
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'copy';
  copy.textContent = 'Copy';
  copy.setAttribute('aria-label', `Copy the ${label === 'Spectators' ? 'spectator' : `${label} seat`} link`);
  copy.addEventListener('click', () => copyLink(input, copy));
  li.append(name, copy);
  return li;
}

async function copyLink(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = 'Copied';
  } catch {
    // No clipboard (an insecure page, a refusal): the link is selected for a manual copy.
    input.focus();
    input.select();
    button.textContent = 'Selected';
  }
  button.dataset.copied = '1';
  setTimeout(() => { button.textContent = 'Copy'; }, 1500);
}

function show(open) {
  panel.hidden = !open;
  reopen.hidden = open;
  reopen.setAttribute('aria-expanded', String(open));
  if (open) panel.querySelector('input')?.focus();
}

/** Opens the panel by itself the first time, while nobody has moved; gone once the game is over. */
export function renderInvite(game) {
  if (!panel) return;
  if (game.outcome) {
    panel.hidden = true;
    reopen.hidden = true;
    return;
  }
  if (!shownOnce) {
    shownOnce = true;
    const invite = panel.dataset.friends !== '0' && game.moves.length === 0;
    panel.hidden = !invite;
    reopen.hidden = invite;
    reopen.setAttribute('aria-expanded', String(invite));
  }
}
