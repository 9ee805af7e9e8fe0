// A place in words, as results say it elsewhere (records, the server's outcome text).

const SUFFIXES = { 1: 'st', 2: 'nd', 3: 'rd' };

/** 1 → "1st", 2 → "2nd", 3 → "3rd", 4 → "4th". */
export function ordinal(place) {
  return `${place}${SUFFIXES[place] || 'th'}`;
}
