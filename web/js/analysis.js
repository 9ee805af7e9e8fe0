// The analysis board (/analysis): a position of any game played on freely, its moves kept as a
// tree of variations, the engine's lines beside it. Wires the board (board.js, move-picker.js,
// hands-view.js), the tree (analysis-tree.js, analysis-moves.js), the positions
// (analysis-positions.js), where it starts (analysis-start.js) and the engine (engine-panel.js).

import { api } from './api.js';
import { BoardView, seatColour } from './board.js';
import { indexLegalMoves, parseMove, setPieceNames } from './moves.js';
import {
  pickCell, pickHand, renderSelectionBar, selectionMarks, wireSelectionBar,
} from './move-picker.js';
import { renderHand } from './hands-view.js';
import { wireDragMoves } from './drag-move.js';
import { MoveTree } from './analysis-tree.js';
import { renderMoveTree } from './analysis-moves.js';
import { Positions } from './analysis-positions.js';
import { analysisHref, startFromAddress, wireStartForm } from './analysis-start.js';
import { EnginePanel } from './engine-panel.js';
import { nextViewSeat } from './orientation.js';
import { setKanji, wirePieceSetChoice } from './piece-set.js';
import { showNotice } from './notices.js';

const $ = (id) => document.getElementById(id);

const page = {
  variant: null,     // GET /api/variants' entry of the game
  seats: [],
  setup: null,       // { variant, rules, start }
  tree: null,
  positions: null,
  current: null,     // the node shown
  shown: null,       // its position (the study answer), once it came
  board: null,
  engine: null,
  game: null,        // the game id when started from one
  busy: false,       // a move on its way to the server
};

/** What move-picker.js needs of the page. */
const state = { legal: indexLegalMoves([]), selection: null };
const picker = {
  state,
  variant: () => page.setup.variant,
  position: () => page.shown,
  canMove: () => Boolean(page.shown && !page.busy && page.shown.legal_moves.length),
  play: (text) => playMove(text),
  render: () => render(),
  refuse: () => {
    if (page.shown?.outcome) showNotice('The game is over in this position.');
    else if (page.shown?.pending_alliance) showNotice('Answer the proposed alliance first.');
  },
};

/** Plays `text` after the node shown: into the tree (a move there already is gone to), then shown. */
async function playMove(text) {
  const from = page.current;
  page.busy = true;
  try {
    const { entry, answer } = await page.positions.play(page.tree, from, text);
    const node = page.tree.add(from, entry || {
      // An alliance answer is a node of its own that adds no move.
      move: text, short: text === 'accept' ? 'alliance accepted' : 'alliance refused', seat: null,
      events: answer.moves[answer.moves.length - 1]?.events.slice(-1) || [], interjection: true,
    });
    page.positions.cache.set(node.id, answer);
    await goTo(node);
  } catch (err) {
    showNotice(err.message);
  } finally {
    page.busy = false;
    render();
  }
}

let going = 0; // the latest goTo: an older one that answers late changes nothing
/** Shows `node`: its position fetched when not kept yet. */
async function goTo(node) {
  const mine = ++going;
  const before = page.current;
  page.current = node;
  state.selection = null;
  $('analysis').dataset.ready = '';
  renderTree();
  let shown;
  try {
    shown = await page.positions.at(page.tree, node);
  } catch (err) {
    if (mine !== going) return;
    // A move the rules now refuse (an option changed since): said, and the board stays where it was.
    showNotice(err.message);
    if (before && before !== node && page.positions.cache.has(before.id)) goTo(before);
    return;
  }
  if (mine !== going) return;
  page.shown = shown;
  state.legal = indexLegalMoves(shown.legal_moves);
  const motion = before && node.parent === before ? motionOf(node.move) : null;
  render(motion);
  page.engine.positionChanged();
  $('analysis').dataset.ready = '1';
}

function motionOf(text) {
  const mv = parseMove(text || '');
  if (mv?.kind === 'board') return { from: mv.from, to: mv.to };
  if (mv?.kind === 'drop') return { from: null, to: mv.to };
  return null;
}

/** The cells of the last moves before the node shown (one round less one), for the board's marks. */
function trail() {
  const moves = page.tree.path(page.current).filter((n) => !n.interjection);
  return moves.slice(-Math.max(1, page.seats.length - 1)).map((n) => {
    const mv = parseMove(n.move);
    const cells = mv?.kind === 'board' ? [mv.from, mv.to] : mv?.kind === 'drop' ? [mv.to]
      : mv?.kind === 'illuminate' ? [mv.from, ...mv.targets] : [];
    return { seat: n.seat, cells };
  });
}

function renderTree() {
  renderMoveTree(page.tree, page.current, page.seats, goTo);
  const main = $('analysis');
  main.dataset.ply = String(page.current.ply);
  main.dataset.node = String(page.current.id);
  main.dataset.main = page.tree.isMain(page.current) ? '1' : '';
}

/** Draws the page from the node shown and its position. */
function render(motion = null) {
  const { shown } = page;
  renderTree();
  if (!shown) return;
  const view = { board: shown.board, trail: trail(), checked: shown.in_check || [], motion };
  if (picker.canMove()) Object.assign(view, selectionMarks(state));
  page.board.render(view);
  renderSelectionBar(picker, picker.canMove());
  renderTurn();
  renderPlayers();
  $('position-text').textContent = shown.position;
  const last = page.current.interjection ? null : page.current.move;
  const picture = new URLSearchParams({ position: shown.position, seat: page.board.viewSeat });
  if (last) picture.set('last', last);
  $('picture').href = `/api/diagram.svg?${picture}`;
  $('analysis').dataset.toMove = shown.to_move || '';
}

function renderTurn() {
  const { shown } = page;
  const turn = $('turn');
  const question = $('alliance-question');
  question.hidden = !shown.pending_alliance;
  if (shown.outcome) {
    turn.textContent = `Game over: ${shown.outcome.text}`;
  } else if (shown.pending_alliance) {
    const { allies, against } = shown.pending_alliance;
    turn.textContent = 'An alliance is proposed.';
    $('alliance-question-text').textContent = `${allies.join(' and ')} against ${against}: do the allies accept it?`;
  } else {
    const who = shown.to_move;
    turn.replaceChildren();
    const name = document.createElement('span');
    name.className = 'seat-word';
    name.style.color = seatColour(who, Math.max(0, page.seats.indexOf(who)));
    name.textContent = who;
    turn.append(name, ' to move');
    if (shown.in_check?.includes(who)) turn.append(' (in check)');
  }
  const alliance = $('alliance');
  if (shown.alliance) {
    alliance.textContent = `Alliance: ${shown.alliance.allies.join(' and ')} against ${shown.alliance.against}`;
    alliance.className = 'alliance formed';
  } else {
    alliance.textContent = page.seats.length === 3 && page.setup.variant === 'sannin' ? 'No alliance' : '';
    alliance.className = 'alliance';
  }
  alliance.hidden = !alliance.textContent;
}

/** Each seat with its pieces in hand; the seat to move marked. */
function renderPlayers() {
  const { shown } = page;
  const list = $('players');
  if (list.children.length !== page.seats.length) {
    list.replaceChildren(...page.seats.map((seat, i) => {
      const li = document.createElement('li');
      li.className = 'player';
      li.dataset.seat = seat;
      li.style.setProperty('--seat-colour', seatColour(seat, i));
      li.innerHTML = '<header><span class="seat-name"></span><span class="tags"></span></header><div class="hand" aria-label="pieces in hand"></div>';
      li.querySelector('.seat-name').textContent = seat;
      return li;
    }));
  }
  const canMove = picker.canMove();
  page.seats.forEach((seat, i) => {
    const li = list.children[i];
    const toMove = !shown.outcome && shown.to_move === seat;
    li.classList.toggle('to-move', toMove);
    const tags = [];
    if (toMove) tags.push(['move', 'to move']);
    if (shown.in_check?.includes(seat)) tags.push(['check', 'in check']);
    const place = shown.outcome?.placings?.[seat];
    if (place) tags.push(['place', `place ${place}`]);
    li.querySelector('.tags').replaceChildren(...tags.map(([cls, text]) => {
      const span = document.createElement('span');
      span.className = `tag ${cls}`;
      span.textContent = text;
      return span;
    }));
    renderHand(li.querySelector('.hand'), {
      seat,
      hand: shown.hands?.[seat],
      variant: page.setup.variant,
      canDrop: (letter) => canMove && toMove && state.legal.drops.has(letter),
      picked: (letter) => toMove && state.selection?.kind === 'hand' && state.selection.letter === letter,
      onPick: (letter) => pickHand(picker, letter),
    });
  });
}

/** The rule options of the game, changed in place: every move is played again under them. */
function renderRuleOptions() {
  const box = $('rule-options');
  const chosen = new Map(page.setup.rules.map((r) => r.split('=')));
  box.replaceChildren(...(page.variant.options || []).map((option) => {
    const row = document.createElement('div');
    row.className = 'rule-row';
    const label = document.createElement('label');
    label.textContent = option.label;
    label.title = option.explanation;
    const id = `rule-${option.key}`;
    label.htmlFor = id;
    let input;
    if (option.values) {
      input = document.createElement('select');
      for (const value of option.values) input.add(new Option(value, value));
    } else {
      input = document.createElement('input');
      input.inputMode = 'numeric';
    }
    input.id = id;
    input.dataset.key = option.key;
    input.value = chosen.get(option.key) ?? option.default;
    input.addEventListener('change', () => changeRule(option, input));
    const hint = document.createElement('p');
    hint.className = 'small muted';
    hint.textContent = option.explanation;
    row.append(label, input, hint);
    row.classList.toggle('changed', input.value !== option.default);
    return row;
  }));
}

async function changeRule(option, input) {
  const before = page.setup.rules;
  const others = before.filter((r) => !r.startsWith(`${option.key}=`));
  page.setup.rules = input.value === option.default ? others : [...others, `${option.key}=${input.value}`];
  page.positions.clear();
  try {
    await page.positions.at(page.tree, page.current);
  } catch (err) {
    showNotice(`Under that rule: ${err.message}`);
    page.setup.rules = before;
    page.positions.clear();
  }
  renderRuleOptions();
  history.replaceState(null, '', analysisHref(page.setup, page.tree.movesTo(page.tree.lineEnd(page.tree.root)), page.current.ply));
  page.shown = null;
  await goTo(page.current);
}

/** ← → Home End go through the moves, anywhere but in a text field or on the board (where arrows move the focus). */
function wireKeys() {
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.('input, textarea, select, #board, dialog')) return;
    const { tree, current } = page;
    let to = null;
    if (e.key === 'ArrowLeft') to = current.parent;
    else if (e.key === 'ArrowRight') [to] = current.children;
    else if (e.key === 'Home') to = tree.root;
    else if (e.key === 'End') to = tree.lineEnd(current);
    if (!to) return;
    e.preventDefault();
    if (to !== current) goTo(to);
  });
  $('tree-first').addEventListener('click', () => goTo(page.tree.root));
  $('tree-prev').addEventListener('click', () => page.current.parent && goTo(page.current.parent));
  $('tree-next').addEventListener('click', () => page.current.children[0] && goTo(page.current.children[0]));
  $('tree-last').addEventListener('click', () => goTo(page.tree.lineEnd(page.current)));
  $('tree-main').addEventListener('click', () => goTo(page.tree.mainAncestor(page.current)));
  $('tree-promote').addEventListener('click', () => {
    page.tree.promote(page.current);
    renderTree();
  });
  $('tree-delete').addEventListener('click', () => {
    const start = page.tree.variationStart(page.current);
    if (start) goTo(page.tree.remove(start));
  });
}

function wireBoardTools(layout) {
  const select = $('view-seat');
  select.replaceChildren(...page.seats.map((seat) => new Option(seat, seat)));
  select.value = page.board.viewSeat;
  const view = (seat) => {
    page.board.setViewSeat(seat);
    select.value = seat;
    $('analysis').dataset.view = seat;
    render();
  };
  select.addEventListener('change', () => view(select.value));
  $('rotate').title = page.seats.length === 2 ? 'Flip the board' : 'Turn the board to the next seat\'s side';
  $('rotate').addEventListener('click', () => view(nextViewSeat(layout, page.seats, page.board.viewSeat)));
  $('show-coords').addEventListener('change', () => page.board.setCoordinates($('show-coords').checked));
  page.board.setCoordinates($('show-coords').checked);
  wirePieceSetChoice($('piece-set'), $('piece-set-row'), () => {
    page.board.redrawPieces();
    render();
  });
  $('alliance-accept').addEventListener('click', () => playMove('accept'));
  $('alliance-refuse').addEventListener('click', () => playMove('refuse'));
}

async function start() {
  const params = new URLSearchParams(location.search);
  let variants;
  let from;
  try {
    variants = await api.variants();
    from = await startFromAddress(location.search, variants[0].name);
  } catch (err) {
    $('analysis').setAttribute('aria-busy', 'false');
    showNotice(`This position cannot be loaded: ${err.message}`);
    // The form still starts elsewhere.
    if (variants) wireStartForm(variants, params.get('variant') || variants[0].name);
    return;
  }
  page.setup = from.setup;
  page.game = from.game;
  page.variant = variants.find((v) => v.name === from.setup.variant);
  page.seats = page.variant.seats;
  const layout = await api.layout(from.setup.variant);
  setPieceNames(from.setup.variant, layout.pieces);
  setKanji(layout.kanji);
  const title = layout.title || page.variant.title;
  document.title = `polyshogi — analysis — ${title}`;
  $('analysis-title').textContent = from.game ? `Analysis of game ${from.game} — ${title}` : `Analysis board — ${title}`;
  if (from.game) {
    const back = document.createElement('a');
    back.href = `/play/${encodeURIComponent(from.game)}`;
    back.textContent = ' (back to the game)';
    $('analysis-title').appendChild(back);
  }
  $('rules-link').href = `/rules/${encodeURIComponent(from.setup.variant)}`;
  const wanted = params.get('seat');
  page.board = new BoardView($('board'), layout, {
    variant: from.setup.variant,
    seats: page.seats,
    viewSeat: page.seats.includes(wanted) ? wanted : page.seats[0],
    onActivate: (cell) => pickCell(picker, cell),
  });
  $('analysis').dataset.view = page.board.viewSeat;
  page.tree = new MoveTree();
  page.tree.addLine(page.tree.root, from.entries);
  page.positions = new Positions(page.setup);
  page.engine = new EnginePanel({
    request: () => (page.shown ? page.positions.body(page.tree.movesTo(page.current)) : null),
    legal: () => page.shown?.legal_moves || [],
    seats: page.seats,
    onPlay: (text) => picker.canMove() && playMove(text),
  });
  let node = page.tree.root;
  while (node.ply < from.ply && node.children.length) [node] = node.children;
  wireSelectionBar(picker);
  wireDragMoves(page.board, picker, $('players'));
  wireBoardTools(layout);
  wireKeys();
  wireStartForm(variants, from.setup.variant);
  renderRuleOptions();
  await goTo(node);
  $('analysis').setAttribute('aria-busy', 'false');
}

start();
