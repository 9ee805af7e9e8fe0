// The game page (/play/{id}): the board, the players, the moves; a seat link acts for its seat,
// a hot-seat page (tokens of several seats in the URL fragment) acts for whoever is to move.
// Legality always comes from the server's `legal_moves`.

import { api, GameSocket } from './api.js';
import { BoardView, seatColour } from './board.js';
import {
  indexLegalMoves, destinations, illuminationTargets, matchIllumination, parseMove, pieceName,
} from './moves.js';
import { History } from './history.js';

const $ = (id) => document.getElementById(id);

const HAND_ORDER = ['K', 'R', 'B', 'G', 'S', 'N', 'L', 'P', 'E', 'C', 'H'];

// ---- who this page is ------------------------------------------------------------------

const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const tokens = readTokens();
const hotseat = tokens.length > 1 || new URLSearchParams(location.hash.slice(1)).has('hotseat');

/** [{ seat, token }]: from `?seat=…&token=…`, or every seat from `#hotseat=<json>`. */
function readTokens() {
  const found = [];
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has('hotseat')) {
    try {
      const seats = JSON.parse(hash.get('hotseat'));
      for (const [seat, token] of Object.entries(seats)) if (token) found.push({ seat, token });
    } catch { /* ignore a garbled fragment */ }
  }
  const query = new URLSearchParams(location.search);
  if (!found.length && query.get('token')) found.push({ seat: query.get('seat'), token: query.get('token') });
  return found;
}

// ---- page state --------------------------------------------------------------------------

let game = null;          // the latest state from the server
let receivedAt = 0;       // when it came (for the running clock)
let legal = indexLegalMoves([]);
let board = null;         // BoardView
let history = null;
let selection = null;     // {kind:'piece', cell} | {kind:'hand', letter} | {kind:'illuminate', cell, chosen:Set}
let viewPly = null;       // null: the live position; else a ply number being reviewed
let awaiting = false;     // a move was sent and no answer came yet
let endShown = false;
let renderedMoves = '';
let lastTurnKey = '';
const sockets = [];       // GameSocket, each with .you (the seat the server says it holds)
let badToken = false;
let answered = { key: '', seats: new Set() }; // this page's answers to the pending alliance

// ---- helpers -----------------------------------------------------------------------------

function seatIndex(seat) {
  return game ? game.seats.findIndex((s) => s.seat === seat) : -1;
}

function seatKind(seat) {
  return game?.seats.find((s) => s.seat === seat);
}

/** The seats this page may act for (confirmed by the server). */
function mySeats() {
  return new Set(sockets.map((s) => s.you).filter(Boolean));
}

/** The seat this page moves for now, or null. */
function actingSeat() {
  if (!game || game.outcome || game.pending_alliance) return null;
  return mySeats().has(game.to_move) ? game.to_move : null;
}

function canAct() {
  return !!actingSeat() && viewPly === null && !awaiting;
}

function socketFor(seat) {
  return sockets.find((s) => s.you === seat && s.open) || sockets.find((s) => s.you === seat) || null;
}

function send(seat, message) {
  const socket = socketFor(seat);
  if (!socket || !socket.send(message)) {
    showNotice('Not connected: the message was not sent. Reconnecting…');
    return false;
  }
  return true;
}

let noticeTimer = null;
/** A passing message (errors from the server, hints); it hides itself after a while. */
function showNotice(text) {
  const box = $('notice');
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, 8000);
}

/** A message that stays: the game cannot be loaded, or the seat link was refused. */
function showBanner(text) {
  const box = $('banner');
  box.textContent = text;
  box.hidden = false;
}

function formatClock(ms) {
  if (ms == null) return '';
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

function moveCells(text) {
  const mv = parseMove(text || '');
  if (!mv) return [];
  if (mv.kind === 'board') return [mv.from, mv.to];
  if (mv.kind === 'drop') return [mv.to];
  if (mv.kind === 'illuminate') return [mv.from, ...mv.targets];
  return [];
}

function describePiece(cell) {
  const piece = game?.board.find((p) => p.cell === cell);
  return piece ? `${piece.seat} ${pieceName(game.variant, piece.letter, piece.promoted)} on ${cell}` : cell;
}

// ---- start -------------------------------------------------------------------------------

async function start() {
  $('spectator').href = `/play/${encodeURIComponent(gameId)}`;
  $('spectator').textContent = `${location.origin}/play/${gameId}`;
  document.body.dataset.role = hotseat ? 'hotseat' : tokens.length ? 'player' : 'spectator';
  let first;
  try {
    first = await api.game(gameId);
  } catch (err) {
    $('game').setAttribute('aria-busy', 'false');
    showBanner(`This game cannot be loaded: ${err.message}`);
    $('connection').textContent = 'No game';
    return;
  }
  let layout;
  try {
    layout = await api.layout(first.variant);
  } catch (err) {
    showBanner(`The board of ${first.variant} cannot be loaded: ${err.message}`);
    return;
  }
  history = new History(gameId, (ply) => {
    if (viewPly === ply) render();
  });
  board = new BoardView($('board'), layout, {
    variant: first.variant,
    seats: first.seats.map((s) => s.seat),
    onActivate: onCell,
  });
  board.setCoordinates($('show-coords').checked);
  document.title = `polyshogi — ${first.variant} ${gameId}`;
  onState(first, null);
  $('game').setAttribute('aria-busy', 'false');
  const connect = (entry) => {
    const socket = new GameSocket(gameId, entry?.token || null, {
      onMessage: (message, sock) => onMessage(message, sock),
      onStatus: (status) => {
        // After a reconnect nothing sent before is still on its way.
        if (status === 'open') awaiting = false;
        render();
      },
    });
    socket.you = null;
    socket.claimed = entry?.seat || null;
    sockets.push(socket);
  };
  if (tokens.length) tokens.forEach(connect);
  else connect(null);
  wireControls();
  setInterval(tickClocks, 250);
}

function onMessage(message, socket) {
  if (message.type === 'state' && message.game) {
    socket.you = message.game.you || null;
    onState(message.game, socket);
  } else if (message.type === 'error') {
    awaiting = false;
    if (/token/i.test(message.message || '')) {
      badToken = true;
      document.body.dataset.role = sockets.some((s) => s.you) ? document.body.dataset.role : 'spectator';
      showBanner(`The seat link was refused (${message.message}). You are watching as a spectator.`);
    } else {
      showNotice(message.message || 'The server refused that.');
    }
    render();
  }
}

function onState(state, socket) {
  // With several sockets (hot-seat), never step back to an older state.
  if (game && state.moves.length < game.moves.length) return;
  const turnKey = `${state.moves.length}|${state.to_move}|${state.outcome ? 1 : 0}|${state.pending_alliance ? 1 : 0}`;
  game = state;
  receivedAt = performance.now();
  history?.record(state);
  legal = indexLegalMoves(state.legal_moves);
  if (turnKey !== lastTurnKey) {
    // A new position: the sent move (if any) was answered; the selection is stale.
    selection = null;
    awaiting = false;
    lastTurnKey = turnKey;
  }
  if (socket && badToken === false && socket.claimed && !socket.you && socket.open) {
    // A token whose connection the server treats as a spectator's.
    document.body.dataset.role = mySeats().size ? document.body.dataset.role : 'spectator';
  }
  render();
}

// ---- clicks and keys on the board ---------------------------------------------------------

function onCell(cell) {
  if (!game) return;
  if (viewPly !== null) {
    showNotice('You are looking at an earlier position. Go back to the game to move.');
    return;
  }
  if (!canAct()) {
    if (!mySeats().size) showNotice('Spectators cannot move.');
    return;
  }
  if (selection?.kind === 'illuminate') {
    if (illuminationTargets(legal, selection.cell).has(cell)) {
      if (selection.chosen.has(cell)) selection.chosen.delete(cell);
      else selection.chosen.add(cell);
    } else if (cell === selection.cell) {
      selection = { kind: 'piece', cell };
    }
    render();
    return;
  }
  if (selection?.kind === 'piece') {
    const dests = destinations(legal, selection.cell);
    if (dests.has(cell)) {
      chooseMove(dests.get(cell));
      return;
    }
  }
  if (selection?.kind === 'hand') {
    const drops = legal.drops.get(selection.letter);
    if (drops?.has(cell)) {
      playMove(drops.get(cell));
      return;
    }
  }
  if (legal.from.has(cell) || legal.illuminations.has(cell)) {
    selection = selection?.kind === 'piece' && selection.cell === cell ? null : { kind: 'piece', cell };
  } else {
    selection = null;
  }
  render();
}

async function chooseMove(moves) {
  const promote = moves.find((m) => m.promote);
  const keep = moves.find((m) => !m.promote);
  if (promote && keep) {
    const answer = await askPromotion(promote);
    if (answer === 'promote') playMove(promote.text);
    else if (answer === 'keep') playMove(keep.text);
    else render();
    return;
  }
  playMove(moves[0].text);
}

function askPromotion(mv) {
  const dialog = $('promotion');
  $('promotion-text').textContent =
    `${pieceName(game.variant, mv.letter, mv.promotedPiece)} from ${mv.from} to ${mv.to}: promote it?`;
  return new Promise((resolve) => {
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue || 'cancel'), { once: true });
    dialog.showModal();
    $('promote-yes').focus();
  });
}

function confirmAction(text) {
  const dialog = $('confirm');
  $('confirm-text').textContent = text;
  return new Promise((resolve) => {
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
    dialog.showModal();
    $('confirm-no').focus();
  });
}

function playMove(text) {
  const seat = actingSeat();
  if (!seat) return;
  selection = null;
  if (send(seat, { type: 'move', move: text })) awaiting = true;
  render();
}

// ---- controls ----------------------------------------------------------------------------

function wireControls() {
  $('selection-cancel').addEventListener('click', () => {
    selection = null;
    render();
  });
  $('illuminate').addEventListener('click', () => {
    if (selection?.kind !== 'piece') return;
    const options = legal.illuminations.get(selection.cell) || [];
    // With one possible illumination (e.g. `illumination=all`), its targets are chosen already.
    const chosen = options.length === 1 ? new Set(options[0].targets) : new Set();
    selection = { kind: 'illuminate', cell: selection.cell, chosen };
    render();
  });
  $('illuminate-confirm').addEventListener('click', () => {
    if (selection?.kind !== 'illuminate') return;
    const text = matchIllumination(legal, selection.cell, selection.chosen);
    if (text) playMove(text);
  });
  $('pass').addEventListener('click', () => legal.pass && playMove(legal.pass));
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    const seat = actingSeat();
    if (!text) return;
    if (!seat) {
      showNotice(game?.outcome ? 'The game is over.' : 'It is not your turn.');
      return;
    }
    if (send(seat, { type: 'move', move: text })) {
      awaiting = true;
      $('move-input').value = '';
    }
    render();
  });
  $('resign').addEventListener('click', async () => {
    const seat = resigningSeat();
    if (!seat) return;
    if (await confirmAction(`Resign for ${seat}? ${seat} leaves the game.`)) send(seat, { type: 'resign' });
  });
  $('offer-draw').addEventListener('click', () => {
    for (const seat of drawSeats()) send(seat, { type: 'offer_draw' });
  });
  $('alliance-accept').addEventListener('click', () => answerAlliance(true));
  $('alliance-refuse').addEventListener('click', () => answerAlliance(false));
  $('export').addEventListener('click', exportRecord);
  $('end-export').addEventListener('click', exportRecord);
  $('show-coords').addEventListener('change', (e) => board?.setCoordinates(e.target.checked));
  $('nav-first').addEventListener('click', () => goTo(0));
  $('nav-prev').addEventListener('click', () => goTo(currentPly() - 1));
  $('nav-next').addEventListener('click', () => goTo(currentPly() + 1));
  $('nav-last').addEventListener('click', () => goTo(null));
  $('back-to-live').addEventListener('click', () => goTo(null));
  $('moves').addEventListener('keydown', onMovesKey);
  document.querySelector('.nav').addEventListener('keydown', onMovesKey);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && selection && !document.querySelector('dialog[open]')) {
      selection = null;
      render();
    }
  });
}

/** The seat a resignation or draw offer is for: one's own, or (hot-seat) the seat to move. */
function resigningSeat() {
  if (!game || game.outcome) return null;
  const mine = mySeats();
  if (mine.has(game.to_move)) return game.to_move;
  const active = game.seats.filter((s) => s.active !== false && mine.has(s.seat));
  return active.length === 1 ? active[0].seat : null;
}

/** The seats a draw offer is made for: one's own; in hot-seat, every seat here still playing. */
function drawSeats() {
  if (!game || game.outcome) return [];
  const offered = game.draw_offered_by || [];
  if (!hotseat) {
    const seat = resigningSeat();
    return seat && !offered.includes(seat) ? [seat] : [];
  }
  const mine = mySeats();
  return game.seats.filter((s) => s.active !== false && mine.has(s.seat) && !offered.includes(s.seat)).map((s) => s.seat);
}

function answerAlliance(accept) {
  const seat = allianceAnswerer();
  if (seat && send(seat, { type: 'alliance', accept })) {
    answered.seats.add(seat);
    render();
  }
}

/** The seat of this page that still has to answer the proposed alliance (both allies answer). */
function allianceAnswerer() {
  const pending = game?.pending_alliance;
  if (!pending) return null;
  const key = `${game.moves.length}|${pending.allies.join('+')}|${pending.against}`;
  if (answered.key !== key) answered = { key, seats: new Set() };
  const mine = mySeats();
  return pending.allies.find((s) => mine.has(s) && !answered.seats.has(s)) || null;
}

async function exportRecord() {
  try {
    const text = await api.record(gameId);
    const blob = new Blob([text], { type: 'text/plain' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `polyshogi-${game?.variant || 'game'}-${gameId}.psn`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (err) {
    showNotice(`The record could not be fetched: ${err.message}`);
  }
}

// ---- going through the game --------------------------------------------------------------

function currentPly() {
  return viewPly === null ? game?.moves.length || 0 : viewPly;
}

function goTo(ply) {
  if (!game) return;
  const last = game.moves.length;
  if (ply !== null) ply = Math.max(0, Math.min(last, ply));
  viewPly = ply === null || ply === last ? null : ply;
  selection = null;
  render();
  const current = $('moves').querySelector('[aria-current="true"]');
  current?.scrollIntoView({ block: 'nearest' });
}

function onMovesKey(e) {
  const keys = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 };
  if (e.key in keys) {
    goTo(currentPly() + keys[e.key]);
    e.preventDefault();
    if (e.currentTarget.id === 'moves') $('moves').querySelector('[aria-current="true"]')?.focus();
  } else if (e.key === 'Home') {
    goTo(0);
    e.preventDefault();
  } else if (e.key === 'End') {
    goTo(null);
    e.preventDefault();
  }
}

// ---- drawing -----------------------------------------------------------------------------

function render() {
  if (!game || !board) return;
  const seat = actingSeat();
  const me = mySeats();
  const main = $('game');
  main.dataset.ply = String(game.moves.length);
  main.dataset.toMove = game.to_move || '';
  main.dataset.viewing = viewPly === null ? 'live' : String(viewPly);
  main.dataset.over = game.outcome ? '1' : '';
  main.dataset.acting = seat || '';
  $('game-title').textContent = `${game.variant} · game ${game.id}${hotseat ? ' · hot-seat' : ''}`
    + (game.rules?.length ? ` · ${game.rules.join(', ')}` : '');

  renderTurn(seat, me);
  renderBoard(seat);
  renderSelectionBar(seat);
  renderPlayers(seat);
  renderMoves();
  renderAllianceQuestion();
  renderConnection();
  const resigning = resigningSeat();
  $('resign').disabled = !resigning;
  $('resign').textContent = hotseat && resigning ? `Resign (${resigning})` : 'Resign';
  const offered = game.draw_offered_by || [];
  const drawing = drawSeats();
  $('offer-draw').disabled = !drawing.length;
  $('offer-draw').textContent = !drawing.length && offered.length && !game.outcome ? 'Draw offered'
    : offered.length ? `Accept the draw (${offered.join(', ')} offered)`
      : hotseat ? 'Agree a draw' : 'Offer a draw';
  $('move-submit').disabled = !seat || awaiting;
  $('play-controls').hidden = me.size === 0;
  if (game.outcome && !endShown) {
    endShown = true;
    showEnd();
  }
}

function renderTurn(seat, me) {
  const turn = $('turn');
  let text;
  if (game.outcome) text = `Game over: ${game.outcome.text}`;
  else if (game.pending_alliance) {
    const p = game.pending_alliance;
    text = `Alliance proposed: ${p.allies.join(' + ')} against ${p.against}. Waiting for the answer.`;
  } else if (seat && hotseat) text = `${seat} to move — your turn on this device`;
  else if (seat) text = `Your move (${seat})`;
  else {
    const kind = seatKind(game.to_move);
    const bot = kind?.kind === 'bot' ? ` (bot${kind.level ? `, ${kind.level}` : ''})` : '';
    text = `${game.to_move} to move${bot}`;
    if (me.size && !hotseat) text += ' — waiting';
  }
  if (awaiting) text += ' · sending…';
  turn.textContent = text;
  turn.classList.toggle('mine', !!seat);
}

function renderBoard(seat) {
  let view;
  const reviewing = viewPly !== null;
  const viewing = $('viewing');
  board.container.classList.remove('unavailable');
  if (reviewing) {
    const shown = viewPly;
    const position = history.at(shown, (err) => {
      if (viewPly === shown) showNotice(`The position after move ${shown} could not be fetched: ${err.message}`);
    });
    const mv = game.moves[viewPly - 1];
    viewing.hidden = false;
    const what = viewPly === 0 ? 'the start position' : `the position after move ${viewPly} (${mv.seat} ${mv.short || mv.move})`;
    if (position) {
      $('viewing-text').textContent = `Showing ${what}.`;
      view = { board: position.board, lastMove: mv ? moveCells(mv.move) : [] };
      renderHands(position.hands, null);
    } else {
      $('viewing-text').textContent = `Fetching ${what}…`;
      board.container.classList.add('unavailable');
      view = { board: [], lastMove: [] };
      renderHands({}, null);
    }
  } else {
    viewing.hidden = true;
    const last = game.moves[game.moves.length - 1];
    view = { board: game.board, lastMove: last ? moveCells(last.move) : [] };
    if (seat && !awaiting) {
      view.interactive = true;
      view.movable = new Set([...legal.from.keys(), ...legal.illuminations.keys()]);
      if (selection?.kind === 'piece') {
        view.selected = selection.cell;
        view.dests = new Set(destinations(legal, selection.cell).keys());
      } else if (selection?.kind === 'hand') {
        view.dests = new Set(legal.drops.get(selection.letter)?.keys() || []);
      } else if (selection?.kind === 'illuminate') {
        view.selected = selection.cell;
        view.targets = illuminationTargets(legal, selection.cell);
        view.chosen = selection.chosen;
      }
    }
  }
  board.render(view);
}

function renderSelectionBar(seat) {
  const bar = $('selection-bar');
  const illuminate = $('illuminate');
  const confirm = $('illuminate-confirm');
  $('pass').hidden = !(seat && legal.pass && viewPly === null);
  if (!seat || !selection || viewPly !== null) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  illuminate.hidden = true;
  confirm.hidden = true;
  if (selection.kind === 'piece') {
    const count = destinations(legal, selection.cell).size;
    const canIlluminate = legal.illuminations.has(selection.cell);
    $('selection-text').textContent = `${describePiece(selection.cell)}: ${count} destination${count === 1 ? '' : 's'}`
      + (canIlluminate ? ', or illuminate' : '');
    illuminate.hidden = !canIlluminate;
  } else if (selection.kind === 'hand') {
    const count = legal.drops.get(selection.letter)?.size || 0;
    $('selection-text').textContent = `Drop a ${pieceName(game.variant, selection.letter)}: choose one of ${count} cells`;
  } else if (selection.kind === 'illuminate') {
    const text = matchIllumination(legal, selection.cell, selection.chosen);
    const n = selection.chosen.size;
    $('selection-text').textContent = `Illumination from ${selection.cell}: choose the pieces to remove (${n} chosen)`
      + (text ? ` — ${text}` : '');
    confirm.hidden = false;
    confirm.disabled = !text;
  }
}

function renderHands(hands, seat) {
  for (const li of $('players').children) {
    const s = li.dataset.seat;
    const box = li.querySelector('.hand');
    const hand = hands?.[s] || {};
    const letters = Object.keys(hand).filter((l) => hand[l] > 0)
      .sort((a, b) => HAND_ORDER.indexOf(a) - HAND_ORDER.indexOf(b));
    box.replaceChildren();
    if (!letters.length) {
      const empty = document.createElement('span');
      empty.className = 'empty';
      empty.textContent = 'no pieces in hand';
      box.appendChild(empty);
      continue;
    }
    for (const letter of letters) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.letter = letter;
      const droppable = seat === s && viewPly === null && legal.drops.has(letter) && !awaiting;
      b.disabled = !droppable;
      b.setAttribute('aria-pressed', String(selection?.kind === 'hand' && selection.letter === letter && seat === s));
      b.setAttribute('aria-label', `${s} ${pieceName(game.variant, letter)} in hand, ${hand[letter]}${droppable ? ', drop' : ''}`);
      b.innerHTML = `${letter}<span class="count">×${hand[letter]}</span>`;
      b.addEventListener('click', () => {
        selection = selection?.kind === 'hand' && selection.letter === letter ? null : { kind: 'hand', letter };
        render();
      });
      box.appendChild(b);
    }
  }
}

function renderPlayers(seat) {
  const list = $('players');
  const me = mySeats();
  if (list.children.length !== game.seats.length) {
    list.replaceChildren(...game.seats.map((s, i) => {
      const li = document.createElement('li');
      li.className = 'player';
      li.dataset.seat = s.seat;
      li.style.setProperty('--seat-colour', seatColour(s.seat, i));
      li.innerHTML = '<header><span class="seat-name"></span><span class="kind"></span><span class="tags"></span>'
        + '<span class="clock" aria-label="clock"></span></header><div class="conn"></div><div class="hand" aria-label="pieces in hand"></div>';
      li.querySelector('.seat-name').textContent = s.seat;
      return li;
    }));
  }
  const placings = game.outcome?.placings || null;
  game.seats.forEach((s, i) => {
    const li = list.children[i];
    const out = s.active === false;
    li.classList.toggle('to-move', !game.outcome && game.to_move === s.seat);
    li.classList.toggle('out', out);
    li.dataset.out = out ? '1' : '';
    li.querySelector('.kind').textContent = s.kind === 'bot' ? `bot${s.level ? ` (${s.level})` : ''}` : 'human';
    const tags = [];
    if (me.has(s.seat)) tags.push(['you', hotseat ? 'this device' : 'you']);
    if (!game.outcome && game.to_move === s.seat) tags.push(['move', 'to move']);
    if (out && !placings) tags.push(['out', 'out']);
    if (placings && placings[s.seat] != null) tags.push(['place', `place ${placings[s.seat]}`]);
    if ((game.draw_offered_by || []).includes(s.seat)) tags.push(['draw', 'offers a draw']);
    const tagBox = li.querySelector('.tags');
    tagBox.replaceChildren(...tags.map(([cls, text]) => {
      const t = document.createElement('span');
      t.className = `tag ${cls}`;
      t.textContent = text;
      return t;
    }));
    const conn = li.querySelector('.conn');
    if (s.kind === 'human') {
      conn.textContent = s.connected ? 'online' : 'not connected';
      conn.classList.toggle('off', !s.connected);
    } else conn.textContent = '';
  });
  const alliance = $('alliance');
  if (game.alliance) {
    alliance.textContent = `Alliance: ${game.alliance.allies.join(' + ')} against ${game.alliance.against}`;
    alliance.classList.add('formed');
  } else {
    alliance.textContent = game.seats.length > 2 ? 'No alliance' : '';
    alliance.classList.remove('formed');
  }
  alliance.hidden = !alliance.textContent;
  if (viewPly === null) renderHands(game.hands, seat);
  tickClocks();
}

function tickClocks() {
  if (!game) return;
  const list = $('players');
  const elapsed = performance.now() - receivedAt;
  game.seats.forEach((s, i) => {
    const clock = list.children[i]?.querySelector('.clock');
    if (!clock) return;
    if (s.clock_ms == null) {
      clock.hidden = true;
      return;
    }
    clock.hidden = false;
    const running = !game.outcome && !game.pending_alliance && game.to_move === s.seat && s.active !== false;
    const ms = running ? s.clock_ms - elapsed : s.clock_ms;
    clock.textContent = formatClock(ms);
    clock.classList.toggle('running', running);
    clock.classList.toggle('low', ms < 30000);
  });
}

function renderMoves() {
  const list = $('moves');
  const n = game.moves.length;
  // Resignations, answers and draws add events to the last move without adding a move.
  const key = `${n}|${(game.moves[n - 1]?.events || []).length}`;
  if (renderedMoves !== key) {
    const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.replaceChildren(moveItem(0, null), ...game.moves.map((mv, i) => moveItem(i + 1, mv)));
    renderedMoves = key;
    if (stick || viewPly === null) list.scrollTop = list.scrollHeight;
  }
  const cur = currentPly();
  for (const b of list.querySelectorAll('button')) {
    const on = Number(b.dataset.ply) === cur;
    b.setAttribute('aria-current', on ? 'true' : 'false');
    b.tabIndex = on ? 0 : -1;
  }
  $('nav-first').disabled = cur === 0;
  $('nav-prev').disabled = cur === 0;
  $('nav-next').disabled = cur >= n;
  $('nav-last').disabled = viewPly === null;
}

function moveItem(ply, mv) {
  const li = document.createElement('li');
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.ply = String(ply);
  if (!mv) {
    li.className = 'start';
    b.textContent = 'Start position';
  } else {
    const i = seatIndex(mv.seat);
    b.style.setProperty('--seat-colour', seatColour(mv.seat, i));
    b.dataset.move = mv.move;
    b.innerHTML = '<span class="ply"></span><span class="mover"></span><span class="text"></span>';
    b.querySelector('.ply').textContent = `${ply}.`;
    b.querySelector('.mover').textContent = mv.seat;
    b.querySelector('.text').textContent = mv.short || mv.move;
    b.title = mv.move;
  }
  b.addEventListener('click', () => goTo(ply));
  li.appendChild(b);
  if (mv?.events?.length) {
    const ev = document.createElement('span');
    ev.className = 'events';
    ev.textContent = mv.events.join('; ');
    li.appendChild(ev);
  }
  return li;
}

function renderAllianceQuestion() {
  const box = $('alliance-question');
  const seat = allianceAnswerer();
  if (!seat || game.outcome) {
    box.hidden = true;
    return;
  }
  const p = game.pending_alliance;
  $('alliance-question-text').textContent =
    `An alliance of ${p.allies.join(' + ')} against ${p.against} was detected. ${hotseat ? seat : 'You'} may accept or refuse it.`;
  box.hidden = false;
}

function renderConnection() {
  const box = $('connection');
  if (!sockets.length) return;
  const open = sockets.some((s) => s.open);
  const me = [...mySeats()];
  box.dataset.state = open ? 'open' : 'connecting';
  const role = hotseat ? `hot-seat (${me.join(', ') || 'no seat'})` : me.length ? `playing ${me[0]}` : 'spectator';
  box.textContent = open ? `Connected · ${role}` : 'Reconnecting…';
}

function showEnd() {
  const dialog = $('game-end');
  $('game-end-text').textContent = game.outcome.text;
  const placings = game.outcome.placings || {};
  const rows = game.seats.map((s) => [s.seat, placings[s.seat]]).sort((a, b) => (a[1] ?? 99) - (b[1] ?? 99));
  $('placings').replaceChildren(...rows.map(([seat, place]) => {
    const li = document.createElement('li');
    li.textContent = `${seat}${place != null ? ` — place ${place}` : ''}`;
    return li;
  }));
  if (!dialog.open) dialog.showModal();
}

start();
