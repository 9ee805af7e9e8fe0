// Games and players in the words the lobby, the profiles and the archive share: a clock as
// "10+5", a player as "alice 1500?", a rating change as "+23" or "−18", a date, a variant's title,
// an engine's value in pawns.

/** Centipawns as signed pawns with `digits` decimals: "+0.31", "−1.2", "0.00" (no sign for 0). */
export function signedPawns(cp, digits) {
  const value = (Math.abs(cp) / 100).toFixed(digits);
  if (Number(value) === 0) return value;
  return `${cp > 0 ? '+' : '−'}${value}`;
}

/** Minutes as players write them: ½, ¼, ¾, or the number. */
function minutesWords(ms) {
  const minutes = ms / 60000;
  const fractions = { 0.25: '¼', 0.5: '½', 0.75: '¾' };
  if (fractions[minutes]) return fractions[minutes];
  return String(Math.round(minutes * 100) / 100);
}

/** A time control: "10+5" (minutes each + seconds added per move), or "No clock". */
export function clockWords(clock) {
  if (!clock) return 'No clock';
  return `${minutesWords(clock.initial_ms)}+${Math.round(clock.increment_ms / 1000)}`;
}

/** "Rated" or "Casual". */
export function modeWords(rated) {
  return rated ? 'Rated' : 'Casual';
}

/** A rating as a number, with "?" while it is provisional (lichess's way): "1500?", "1623". */
export function shortRating(player) {
  if (player?.rating == null) return '';
  return `${player.rating}${player.provisional ? '?' : ''}`;
}

/** A rating with its deviation: "1523 ± 471". */
export function ratingWithDeviation(player) {
  if (player?.rating == null) return '';
  return player.deviation == null ? String(player.rating) : `${player.rating} ± ${player.deviation}`;
}

/** A rating change: "+23", "−18" (a true minus sign), "±0"; '' when unrated. */
export function ratingChange(before, after) {
  if (before == null || after == null) return '';
  const d = after - before;
  if (d === 0) return '±0';
  return d > 0 ? `+${d}` : `−${-d}`;
}

/** A day: "26 Nov 2026". */
export function dateWords(ms) {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

/** A day and time: "26 Nov 2026, 17:05". */
export function dateTimeWords(ms) {
  return new Date(ms).toLocaleString('en-GB', {
    day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit',
  });
}

/** A duration as m:ss (or h:mm:ss). */
export function countdownWords(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A game's title as players know it: the variant's `title` from GET /api/variants. */
export function variantTitle(variants, name) {
  return variants.find((v) => v.name === name)?.title || name;
}

/** A bot's level in words: its label from GET /api/levels ("Bot: Easy"). */
export function botWords(levels, level) {
  const found = levels.find((l) => l.name === level);
  return `Bot${found || level ? ` (${found ? found.label : level})` : ''}`;
}
