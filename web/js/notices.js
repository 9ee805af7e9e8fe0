// Messages above the board: a passing notice (the server's refusals, hints) that hides itself,
// and a banner that stays (the game cannot be loaded, the seat link was refused).

const $ = (id) => document.getElementById(id);

let noticeTimer = null;

/** A passing message (errors from the server, hints); it hides itself after a while. */
export function showNotice(text) {
  const box = $('notice');
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, 8000);
}

/** A message that stays: the game cannot be loaded, or the seat link was refused. */
export function showBanner(text) {
  const box = $('banner');
  box.textContent = text;
  box.hidden = false;
}
