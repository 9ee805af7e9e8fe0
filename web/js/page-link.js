// Who this page is, read from its URL: the game, and the seats it holds tokens for (a seat
// link's one seat, or every seat of a hot-seat page); with no token it is a spectator's page.

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

export const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
export const tokens = readTokens();
export const hotseat = tokens.length > 1 || new URLSearchParams(location.hash.slice(1)).has('hotseat');
