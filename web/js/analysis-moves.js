// The analysis board's move list, as lichess draws one: the main line in rounds, each
// variation in an indented block under the move it replaces (deeper ones in parentheses), the
// shown move marked; a click on a move goes there. Also the buttons under it: return to the main
// line, make a variation the main line, delete a variation.

import { seatColour } from './board.js';

const $ = (id) => document.getElementById(id);

/**
 * Draws `tree` (analysis-tree.js) into #tree with `current` marked. `seats`: the seat names in
 * turn order (for the rounds' numbers and the colours); a click on a move calls `onGo(node)`.
 */
export function renderMoveTree(tree, current, seats, onGo) {
  const box = $('tree');
  const rounds = (ply) => Math.ceil(ply / seats.length);
  const moveButton = (node, numbered) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mv';
    b.dataset.node = String(node.id);
    b.dataset.move = node.move;
    b.dataset.ply = String(node.ply);
    if (node.seat) b.style.setProperty('--seat-colour', seatColour(node.seat, Math.max(0, seats.indexOf(node.seat))));
    else b.classList.add('answer');
    b.title = `${node.seat || 'The allies'}: ${node.move}${node.events.length ? ` — ${node.events.join('; ')}` : ''}`;
    const first = !node.interjection && (node.ply - 1) % seats.length === 0;
    if (!node.interjection && (numbered || first)) {
      const n = document.createElement('span');
      n.className = 'num';
      n.textContent = first ? `${rounds(node.ply)}.` : `${rounds(node.ply)}…`;
      b.appendChild(n);
    }
    const t = document.createElement('span');
    t.className = 'san';
    t.textContent = node.short;
    b.appendChild(t);
    b.setAttribute('aria-label', node.seat ? `${node.ply}. ${node.seat} ${node.short}` : node.short);
    if (node === current) b.setAttribute('aria-current', 'true');
    b.addEventListener('click', () => onGo(node));
    return b;
  };
  const eventsOf = (node) => {
    if (!node.events.length) return null;
    const span = document.createElement('span');
    span.className = 'ev';
    span.textContent = node.events.join('; ');
    return span;
  };
  /** The line from `node` on (node included) into `parent`; variations as blocks at depth 0, parentheses deeper. */
  const line = (node, parent, depth, numbered) => {
    let n = node;
    let number = numbered;
    while (n) {
      parent.appendChild(moveButton(n, number));
      number = false;
      const ev = eventsOf(n);
      if (ev) {
        parent.appendChild(ev);
        number = true;
      }
      const siblings = n.parent.children;
      // The alternatives to `n` are drawn after it, when `n` is its parent's main move.
      if (siblings[0] === n && siblings.length > 1) {
        for (const alt of siblings.slice(1)) {
          if (depth === 0) {
            const block = document.createElement('div');
            block.className = 'variation';
            block.dataset.variation = String(alt.id);
            line(alt, block, depth + 1, true);
            parent.appendChild(block);
          } else {
            const span = document.createElement('span');
            span.className = 'subvariation';
            span.dataset.variation = String(alt.id);
            span.append('(');
            line(alt, span, depth + 1, true);
            span.append(')');
            parent.appendChild(span);
          }
        }
        number = true;
      }
      [n] = n.children;
    }
  };
  const main = document.createElement('div');
  main.className = 'mainline';
  const start = document.createElement('button');
  start.type = 'button';
  start.className = 'mv start';
  start.dataset.node = '0';
  start.dataset.ply = '0';
  start.textContent = 'Start';
  if (current === tree.root) start.setAttribute('aria-current', 'true');
  start.addEventListener('click', () => onGo(tree.root));
  main.appendChild(start);
  if (tree.root.children.length) {
    // The root's alternatives (another first move) are variations of the first move.
    line(tree.root.children[0], main, 0, true);
  }
  box.replaceChildren(main);
  if (!tree.root.children.length) {
    const empty = document.createElement('p');
    empty.className = 'muted small';
    empty.textContent = 'No move yet: play one on the board.';
    box.appendChild(empty);
  }
  // The shown move stays in view within the list (#tree is positioned: offsetTop counts from it).
  const shown = box.querySelector('[aria-current="true"]');
  if (shown && box.scrollHeight > box.clientHeight) {
    const top = shown.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - shown.offsetHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  const onMain = tree.isMain(current);
  $('tree-main').disabled = onMain;
  $('tree-promote').disabled = onMain;
  $('tree-delete').disabled = onMain;
  $('tree-prev').disabled = current === tree.root;
  $('tree-next').disabled = !current.children.length;
  $('tree-where').textContent = onMain ? '' : 'In a variation';
}
