// Which seat the board is seen from: the page's own seat (a hot-seat page: the first of its
// seats in turn order), a spectator's first seat, or the seat chosen since with the rotate
// button or the seat picker, remembered per game. The board is turned so that this seat's army
// sits at the bottom, its letters upright.

const storageKey = (gameId) => `polyshogi.view.${gameId}`;

function stored(gameId) {
  try {
    return localStorage.getItem(storageKey(gameId));
  } catch {
    return null; // storage refused (private mode): the default view
  }
}

/** The seat to view from: the remembered one, else the first own seat, else the first seat. */
export function initialViewSeat(gameId, seats, ownSeats) {
  const remembered = stored(gameId);
  if (seats.includes(remembered)) return remembered;
  return seats.find((s) => ownSeats.includes(s)) || seats[0];
}

export function rememberViewSeat(gameId, seat) {
  try {
    localStorage.setItem(storageKey(gameId), seat);
  } catch { /* not remembered; the view still changes */ }
}

/**
 * Clockwise degrees to turn the drawing so that `seat` sits at the bottom: `seat_rotation` is
 * the clockwise turn of a seat's pieces, pointing to its forward direction, so turning the board
 * back by it points that seat's pieces up, toward the far side.
 */
export function boardTurn(layout, seats, seat) {
  const rotation = layout.seat_rotation?.[seats.indexOf(seat)] || 0;
  return (((-rotation) % 360) + 360) % 360;
}

/** The seat whose view is the next clockwise turn of the board from `seat`'s view. */
export function nextViewSeat(layout, seats, seat) {
  const from = boardTurn(layout, seats, seat);
  let best = seat;
  let bestStep = Infinity;
  for (const other of seats) {
    const step = (((boardTurn(layout, seats, other) - from) % 360) + 360) % 360;
    if (step > 0 && step < bestStep) { best = other; bestStep = step; }
  }
  return best;
}
