// A small, safe subset of Markdown for the rules pages (docs/variants/*.md, served by the
// server): headings, paragraphs, lists, tables, code blocks, and inline code, bold, italics
// and links. Everything becomes DOM nodes with textContent, never HTML from the text.
// Links leave the page only for another game's rules; any other link keeps just its words.

const RULES_LINK = /^(sannin|hexshogi91|tphs91|sankaku)\.md(#.*)?$/;

function el(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

/** Inline Markdown into `parent`: `code`, **bold**, *italic*, [text](target). */
function inline(parent, text) {
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    const token = match[0];
    if (token.startsWith('`')) {
      const code = el('code');
      code.textContent = token.slice(1, -1);
      parent.append(code);
    } else if (token.startsWith('**')) {
      const strong = el('strong');
      inline(strong, token.slice(2, -2));
      parent.append(strong);
    } else if (token.startsWith('*')) {
      const em = el('em');
      inline(em, token.slice(1, -1));
      parent.append(em);
    } else {
      const [, words, target] = token.match(/^\[([^\]]+)\]\(([^)]+)\)$/);
      const rules = target.match(RULES_LINK);
      if (target.startsWith('#') || rules) {
        const a = el('a');
        a.href = rules ? `/rules/${rules[1]}${rules[2] || ''}` : target;
        inline(a, words);
        parent.append(a);
      } else {
        inline(parent, words);
      }
    }
    last = match.index + token.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

/** The anchor a heading gets, as GitHub makes it, so that `#rule-options` links work. */
function slug(text) {
  return text.toLowerCase().replace(/[`*]/g, '').replace(/[^\p{L}\p{N} -]/gu, '').trim().replace(/ /g, '-');
}

function cells(line) {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** Markdown text → a DocumentFragment. */
export function renderMarkdown(text) {
  const out = document.createDocumentFragment();
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    if (line.startsWith('```')) {
      const pre = el('pre');
      const body = [];
      for (i += 1; i < lines.length && !lines[i].startsWith('```'); i += 1) body.push(lines[i]);
      pre.textContent = body.join('\n');
      out.append(pre);
      i += 1;
      continue;
    }
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    if (heading) {
      // The page's own title is the game's; the guide's headings sit below it.
      const h = el(`h${Math.min(heading[1].length + 1, 5)}`);
      h.id = slug(heading[2]);
      inline(h, heading[2]);
      out.append(h);
      i += 1;
      continue;
    }
    if (line.trim().startsWith('|')) {
      const table = el('table');
      const head = el('thead');
      const tr = el('tr');
      for (const c of cells(line)) { const th = el('th'); inline(th, c); tr.append(th); }
      head.append(tr);
      table.append(head);
      const body = el('tbody');
      for (i += 2; i < lines.length && lines[i].trim().startsWith('|'); i += 1) {
        const row = el('tr');
        for (const c of cells(lines[i])) { const td = el('td'); inline(td, c); row.append(td); }
        body.append(row);
      }
      table.append(body);
      const scroll = el('div', 'table-scroll');
      scroll.append(table);
      out.append(scroll);
      continue;
    }
    if (/^\s*([*-]|\d+\.)\s/.test(line)) {
      const list = el(/^\s*\d+\./.test(line) ? 'ol' : 'ul');
      let item = null;
      for (; i < lines.length && lines[i].trim(); i += 1) {
        const start = lines[i].match(/^\s*(?:[*-]|\d+\.)\s+(.*)$/);
        if (start) {
          item = el('li');
          list.append(item);
          inline(item, start[1]);
        } else {
          item.append(' ');
          inline(item, lines[i].trim());
        }
      }
      out.append(list);
      continue;
    }
    // A paragraph runs to a blank line or the start of another block (its first line always
    // belongs to it, whatever it starts with).
    const paragraph = [line.trim()];
    for (i += 1; i < lines.length && lines[i].trim() && !/^(#|```|\s*\||\s*[*-]\s)/.test(lines[i]); i += 1) paragraph.push(lines[i].trim());
    const p = el('p');
    inline(p, paragraph.join(' '));
    out.append(p);
  }
  return out;
}
