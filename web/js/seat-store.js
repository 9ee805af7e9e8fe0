// What this browser remembers in localStorage, so that no token ever has to sit in a URL: the
// seats it holds per game (seat → token), the creation answer of each game it created (for the
// invite panel), and the list of its games for the lobby's "My games".

const SEATS = 'polyshogi.seats.';     // + game id → { seat: token }
const CREATED = 'polyshogi.created.'; // + game id → the answer of POST /api/games
const GAMES = 'polyshogi.games';      // [{ id, title, seats: [seat], at }], newest first
/** "My games" keeps this many games; older ones drop off (their tokens with them). */
const KEEP = 30;

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch { /* storage full or refused: the page still works for this visit */ }
}

/** { seat: token } of the seats this browser holds in game `id`. */
export function storedSeats(id) {
  return read(SEATS + id, {});
}

/** Adds seats ({ seat: token }) to those this browser holds in game `id`. */
export function rememberSeats(id, seats) {
  write(SEATS + id, { ...storedSeats(id), ...seats });
  noteGame(id, {});
}

/** Forgets a seat whose token the server refused. */
export function forgetSeat(id, seat) {
  const seats = storedSeats(id);
  delete seats[seat];
  write(SEATS + id, seats);
}

/** Keeps the answer of creating game `answer.id`: the invite panel hands out its links. */
export function rememberCreated(answer) {
  write(CREATED + answer.id, answer);
}

export function createdAnswer(id) {
  return read(CREATED + id, null);
}

/** Records game `id` among "My games" (newest first), with what is known of it now. */
export function noteGame(id, { title }) {
  const games = myGames().filter((g) => g.id !== id);
  const old = myGames().find((g) => g.id === id);
  const entry = { id, title: title || old?.title || '', seats: Object.keys(storedSeats(id)), at: old?.at || Date.now() };
  const kept = [entry, ...games].sort((a, b) => b.at - a.at);
  for (const dropped of kept.slice(KEEP)) {
    localStorage.removeItem(SEATS + dropped.id);
    localStorage.removeItem(CREATED + dropped.id);
  }
  write(GAMES, kept.slice(0, KEEP));
}

/** This browser's games, newest first. */
export function myGames() {
  const games = read(GAMES, []);
  return Array.isArray(games) ? games : [];
}
