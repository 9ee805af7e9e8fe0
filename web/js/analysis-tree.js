// The analysis board's moves as a tree: the main line is every node's first child, the other
// children are variations. Nodes hold a move as the study answer gave it ({ move, short, seat,
// events }) and `ply`, the moves from the start; nothing here talks to the server or draws.

export class MoveTree {
  constructor() {
    this.nextId = 1;
    this.root = { id: 0, parent: null, children: [], ply: 0, move: null };
    this.byId = new Map([[0, this.root]]);
  }

  /** The child of `parent` playing `entry.move`: the one there, or a new one (after the others). */
  add(parent, entry) {
    const same = parent.children.find((c) => c.move === entry.move);
    if (same) return same;
    const node = {
      id: this.nextId++, parent, children: [], ply: parent.ply + (entry.interjection ? 0 : 1),
      move: entry.move, short: entry.short || entry.move, seat: entry.seat, events: entry.events || [],
      // An alliance answer ("accept", "refuse"): played like a move, but no move of its own.
      interjection: Boolean(entry.interjection),
    };
    parent.children.push(node);
    this.byId.set(node.id, node);
    return node;
  }

  /** Adds `entries` one after the other from `from` (the main line when the tree is new); the last node. */
  addLine(from, entries) {
    let node = from;
    for (const entry of entries) node = this.add(node, entry);
    return node;
  }

  node(id) {
    return this.byId.get(Number(id)) || null;
  }

  /** The nodes from the root's first move to `node`. */
  path(node) {
    const nodes = [];
    for (let n = node; n && n.parent; n = n.parent) nodes.push(n);
    return nodes.reverse();
  }

  /** The move texts from the start to `node`. */
  movesTo(node) {
    return this.path(node).map((n) => n.move);
  }

  /** Whether `node` lies on the main line (first children all the way from the root). */
  isMain(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /** The last node on the main line on the way to `node`: where "return to the main line" goes. */
  mainAncestor(node) {
    let found = this.root;
    for (const n of this.path(node)) {
      if (n.parent.children[0] !== n) break;
      found = n;
    }
    return found;
  }

  /** The end of the line through `node`: its first children followed to the end. */
  lineEnd(node) {
    let n = node;
    while (n.children.length) [n] = n.children;
    return n;
  }

  /** The first move of the variation `node` is in (itself or its nearest ancestor not a first child), or null on the main line. */
  variationStart(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return n;
    return null;
  }

  /** Removes `node` and what follows it; answers its parent. */
  remove(node) {
    const { parent } = node;
    if (!parent) return node;
    parent.children = parent.children.filter((c) => c !== node);
    const forget = [node];
    while (forget.length) {
      const n = forget.pop();
      this.byId.delete(n.id);
      forget.push(...n.children);
    }
    return parent;
  }

  /** Makes the line through `node` the main line: each node on its path becomes its parent's first child. */
  promote(node) {
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      siblings.splice(siblings.indexOf(n), 1);
      siblings.unshift(n);
    }
  }
}
