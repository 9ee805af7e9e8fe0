// The analysis board's engine panel: Start/Stop over the analysis WebSocket
// (GET /api/analysis/ws), every seat's value, the best lines (1 to 5) with depth, speed and
// time, and why an analysis ended, in words. A new position while analysing replaces the
// running analysis; a click on a line's first move plays it.

import { onJsonMessage, socketUrl } from './api.js';
import { seatColour } from './board.js';
import { signedPawns } from './game-words.js';

const $ = (id) => document.getElementById(id);

/** Why an analysis ended, as the panel says it. */
const END_WORDS = {
  stopped: 'Stopped',
  finished: 'Analysis finished',
  time: 'Stopped after 60 s: the server\'s time limit',
};

/** A value in centipawns from a seat's point of view, in pawns with its sign ("+0.31", "−1.20"). */
export function formatScore(cp) {
  if (cp >= 10000) return 'winning';
  if (cp <= -10000) return 'losing';
  return signedPawns(cp, 2);
}

function formatRate(nps) {
  if (nps >= 1e6) return `${(nps / 1e6).toFixed(1)} M`;
  if (nps >= 1e3) return `${Math.round(nps / 1e3)} k`;
  return String(nps);
}

export class EnginePanel {
  /**
   * `request()`: the position to analyse ({ variant, rules, start, moves }) or null when there
   * is none; `legal()`: the shown position's legal moves (reports for another are dropped);
   * `seats`: the seat names in order; `onPlay(text)`: a line's first move clicked.
   */
  constructor({ request, legal, seats, onPlay }) {
    this.request = request;
    this.legal = legal;
    this.seats = seats;
    this.onPlay = onPlay;
    this.ws = null;
    this.running = false;
    this.pending = null; // a message waiting for the socket to open
    $('engine-toggle').addEventListener('click', () => (this.running ? this.stop() : this.start()));
    $('engine-lines').addEventListener('change', () => {
      if (this.running) this.analyse();
    });
    this.clear();
    this.renderButton();
  }

  lines() {
    return Number($('engine-lines').value) || 3;
  }

  /** Starts analysing the shown position. */
  start() {
    this.running = true;
    this.analyse();
  }

  stop() {
    this.running = false;
    this.send({ type: 'stop' });
    this.status('Stopping…');
    this.renderButton();
  }

  /** The board shows another position: analysed at once when the engine is on. */
  positionChanged() {
    this.clear();
    if (this.running) this.analyse();
  }

  analyse() {
    const position = this.request();
    this.clear();
    this.error('');
    if (!position) {
      this.status('Nothing to analyse here.');
      return;
    }
    this.send({ type: 'analyse', ...position, lines: this.lines() });
    this.status('Analysing…');
    this.renderButton();
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return;
    }
    if (message.type === 'stop') return; // nothing runs on a closed socket
    this.pending = message;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.connect();
  }

  connect() {
    const ws = new WebSocket(socketUrl('/api/analysis/ws'));
    this.ws = ws;
    this.status('Connecting to the engine…');
    ws.addEventListener('open', () => {
      if (this.pending && this.running) ws.send(JSON.stringify(this.pending));
      this.pending = null;
    });
    onJsonMessage(ws, (message) => {
      this.receive(message);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.running) {
        this.running = false;
        this.error('The connection to the engine was lost.');
        this.status('Not analysing');
        this.renderButton();
      }
    });
  }

  receive(message) {
    if (message.type === 'analysis') {
      if (!this.running) return;
      // A report of the position before the last move, sent before the server heard of it.
      const first = message.lines?.[0]?.moves?.[0];
      if (first && !this.legal().includes(first)) return;
      this.report(message);
    } else if (message.type === 'analysis_end') {
      this.running = false;
      this.status(END_WORDS[message.reason] || `Ended: ${message.reason}`);
      $('engine').dataset.end = message.reason;
      this.renderButton();
    } else if (message.type === 'error') {
      // A refused analyse starts nothing (and the one before it was ended).
      this.running = false;
      this.error(message.message);
      this.status('Not analysing');
      this.renderButton();
    }
  }

  renderButton() {
    const button = $('engine-toggle');
    button.textContent = this.running ? 'Stop' : 'Start analysis';
    button.setAttribute('aria-pressed', String(this.running));
    $('engine').dataset.running = this.running ? '1' : '';
  }

  status(text) {
    $('engine-status').textContent = text;
  }

  error(text) {
    $('engine-error').textContent = text;
    $('engine-error').hidden = !text;
  }

  /** No report for the shown position yet. */
  clear() {
    $('engine').dataset.depth = '0';
    delete $('engine').dataset.end;
    $('engine-stats').textContent = '';
    $('engine-pvs').replaceChildren();
    this.renderEvals(null);
  }

  /** Each seat's value, from the best line. */
  renderEvals(scores) {
    $('engine-evals').replaceChildren(...this.seats.map((seat, i) => {
      const li = document.createElement('li');
      li.dataset.seat = seat;
      li.style.setProperty('--seat-colour', seatColour(seat, i));
      const name = document.createElement('span');
      name.className = 'seat-name';
      name.textContent = seat;
      const value = document.createElement('span');
      value.className = 'value';
      const cp = scores?.[seat];
      value.textContent = cp == null ? '–' : formatScore(cp);
      if (cp != null) li.dataset.score = String(cp);
      li.append(name, value);
      return li;
    }));
  }

  report({ depth, nps, time_ms: timeMs, lines }) {
    $('engine').dataset.depth = String(depth);
    this.status('Analysing…');
    $('engine-stats').textContent = `Depth ${depth} · ${formatRate(nps)} nodes/s · ${(timeMs / 1000).toFixed(1)} s`;
    this.renderEvals(lines[0]?.scores);
    $('engine-pvs').replaceChildren(...lines.map((line) => {
      const li = document.createElement('li');
      li.className = 'pv';
      const values = document.createElement('span');
      values.className = 'pv-scores';
      this.seats.forEach((seat, i) => {
        const v = document.createElement('span');
        v.style.color = seatColour(seat, i);
        v.title = `${seat}: ${formatScore(line.scores[seat] ?? 0)}`;
        v.textContent = formatScore(line.scores[seat] ?? 0);
        values.appendChild(v);
      });
      values.setAttribute('aria-label', this.seats.map((s) => `${s} ${formatScore(line.scores[s] ?? 0)}`).join(', '));
      const moves = document.createElement('span');
      moves.className = 'pv-moves';
      line.short.slice(0, 12).forEach((text, i) => {
        if (i === 0) {
          const b = document.createElement('button');
          b.type = 'button';
          b.className = 'pv-first';
          b.dataset.move = line.moves[0];
          b.textContent = text;
          b.title = `Play ${line.moves[0]}`;
          b.addEventListener('click', () => this.onPlay(line.moves[0]));
          moves.appendChild(b);
        } else {
          const s = document.createElement('span');
          s.textContent = text;
          moves.append(' ', s);
        }
      });
      li.append(values, moves);
      return li;
    }));
  }
}
