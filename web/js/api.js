// Talking to the polyshogi server (docs/API.md): JSON over HTTP and the game WebSocket.

/** GET a JSON document; throws an Error carrying the server's `error` text on failure. */
export async function getJSON(path, { live = false } = {}) {
  // A live document (a game's state) must never come from the cache, which a browser going
  // Back to a page prefers.
  const res = await fetch(path, {
    headers: { Accept: 'application/json' }, cache: live ? 'no-store' : 'default', credentials: 'same-origin',
  });
  if (!res.ok) throw httpError(await errorText(res), res.status);
  return res.json();
}

/** POST a JSON body; answers the parsed JSON or throws with the server's `error` text. */
export async function postJSON(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
    // The session cookie goes with every request (the account creating or joining a game).
    credentials: 'same-origin',
  });
  if (!res.ok) throw httpError(await errorText(res), res.status);
  return res.json();
}

/** GET a text document (`live`: never from the cache); throws with the server's `error` text. */
export async function getText(path, { live = false } = {}) {
  const res = await fetch(path, { cache: live ? 'no-store' : 'default', credentials: 'same-origin' });
  if (!res.ok) throw httpError(await errorText(res), res.status);
  return res.text();
}

/** An Error with the server's words and the HTTP status (401: not logged in, 409: taken…). */
function httpError(message, status) {
  const err = new Error(message);
  err.status = status;
  return err;
}

async function errorText(res) {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text);
    if (body && typeof body.error === 'string') return body.error;
  } catch { /* not JSON */ }
  return text.trim() || `${res.status} ${res.statusText}`;
}

export const api = {
  variants: () => getJSON('/api/variants'),
  levels: () => getJSON('/api/levels'),
  layout: (variant) => getJSON(`/api/variants/${encodeURIComponent(variant)}/layout`),
  createGame: (body) => postJSON('/api/games', body),
  game: (id) => getJSON(`/api/games/${encodeURIComponent(id)}`, { live: true }),
  record: (id) => getText(`/api/games/${encodeURIComponent(id)}/record`),
  position: (id, ply) => getJSON(`/api/games/${encodeURIComponent(id)}/positions/${ply}`),
  account: () => getJSON('/api/account', { live: true }),
  register: (name, password) => postJSON('/api/account/register', { name, password }),
  login: (name, password) => postJSON('/api/account/login', { name, password }),
  logout: () => postJSON('/api/account/logout', {}),
  lobby: () => getJSON('/api/lobby', { live: true }),
  takeSeat: (id, seat) => postJSON(`/api/games/${encodeURIComponent(id)}/seats/${encodeURIComponent(seat)}`, {}),
  player: (name) => getJSON(`/api/players/${encodeURIComponent(name)}`, { live: true }),
  /** Finished games, newest first: `{ player, variant, page }`, each optional. */
  finishedGames: (filters) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filters)) if (value) query.set(key, String(value));
    return getJSON(`/api/games?${query}`, { live: true });
  },
};

/** A WebSocket URL on this server. */
export function socketUrl(path) {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`;
}

/** Calls `handle` with each message of `ws` that is JSON; the server sends nothing else. */
export function onJsonMessage(ws, handle) {
  ws.addEventListener('message', (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    handle(message);
  });
}

/**
 * The game state after an update (docs/API.md): the update's fields in place of the state's, and
 * its moves after the state's first `moves_from`. A new object: earlier states stay as they were.
 */
export function withUpdate(game, update) {
  const { moves_from: movesFrom, moves, ...fields } = update;
  return { ...game, ...fields, moves: game.moves.slice(0, movesFrom).concat(moves) };
}

/**
 * One WebSocket to a game, reconnecting after a drop. `onMessage` gets each parsed server
 * message, an update as the whole state it makes; `onStatus` gets 'connecting' | 'open' | 'closed'.
 */
export class GameSocket {
  constructor(gameId, token, { onMessage, onStatus }) {
    this.gameId = gameId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.retry = 0;
    this.connect();
  }

  /** The socket's URL: never a token in it (the token goes in the hello). */
  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`;
  }

  connect() {
    this.onStatus('connecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.retry = 0;
      // The server answers the hello with the state; a spectator's hello has no token.
      ws.send(JSON.stringify({ type: 'hello', token: this.token || null }));
      this.onStatus('open');
    });
    onJsonMessage(ws, (message) => {
      if (message.type === 'state') {
        this.game = message.game;
      } else if (message.type === 'update') {
        // Whoever listens sees whole states: the update is put into the last one.
        if (!this.game) return;
        this.game = withUpdate(this.game, message.game);
        message = { type: 'state', game: this.game };
      }
      this.onMessage(message, this);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.onStatus('closed');
      const delay = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    });
  }

  get open() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends a message; answers false when the socket is not open. */
  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}
