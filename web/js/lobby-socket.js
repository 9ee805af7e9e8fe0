// The live list of open games: the lobby WebSocket (GET /api/lobby/ws), which sends the whole
// list at once and again on each change; reconnecting after a drop, polling GET /api/lobby meanwhile.

import { api, onJsonMessage, socketUrl } from './api.js';

/** How often the list is fetched while the socket is down. */
const POLL_MS = 5000;

export class LobbySocket {
  /** `onGames(games)` gets each new list; `onStatus` gets 'connecting' | 'live' | 'polling'. */
  constructor({ onGames, onStatus }) {
    this.onGames = onGames;
    this.onStatus = onStatus || (() => {});
    this.retry = 0;
    this.pollTimer = null;
    this.connect();
  }

  connect() {
    this.onStatus(this.retry ? 'polling' : 'connecting');
    let ws;
    try {
      ws = new WebSocket(socketUrl('/api/lobby/ws'));
    } catch {
      this.dropped();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.retry = 0;
      this.stopPolling();
      this.onStatus('live');
    });
    onJsonMessage(ws, (message) => {
      if (message.type === 'lobby' && Array.isArray(message.games)) this.onGames(message.games);
    });
    ws.addEventListener('close', () => {
      if (this.ws === ws) this.dropped();
    });
  }

  /** The socket is gone: the list is polled until a new socket opens. */
  dropped() {
    this.onStatus('polling');
    this.startPolling();
    const delay = Math.min(15000, 1000 * 2 ** this.retry++);
    setTimeout(() => this.connect(), delay);
  }

  startPolling() {
    if (this.pollTimer) return;
    const poll = async () => {
      try {
        this.onGames((await api.lobby()).games || []);
      } catch { /* the server is away: the next poll tries again */ }
    };
    poll();
    this.pollTimer = setInterval(poll, POLL_MS);
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = null;
  }
}
