/**
 * A title's folded words in one pass over its characters, for titles written in ASCII (most):
 * the same words as the patterns of normalise-title.ts give (a year run into a word split off,
 * "#42" as "n42", `&` and `+` spelt out, lower case, everything else a separator), without the
 * five passes and the strings between them. Detection folds every listing it writes and every
 * candidate it reads; tests/duplicates/title-tokens.test.ts holds the two to the same words.
 */

const UPPER_A = 65;
const UPPER_Z = 90;
const LOWER_A = 97;
const LOWER_Z = 122;
const DIGIT_0 = 48;
const DIGIT_1 = 49;
const DIGIT_2 = 50;
const DIGIT_9 = 57;
const UNDERSCORE = 95;
const HASH = 35;
const AMPERSAND = 38;
const PLUS = 43;
const SPACE = 32;
const TAB = 9;
const CARRIAGE_RETURN = 13;
const LAST_ASCII = 127;

const isDigit = (c: number) => c >= DIGIT_0 && c <= DIGIT_9;
const isLetter = (c: number) => (c >= UPPER_A && c <= UPPER_Z) || (c >= LOWER_A && c <= LOWER_Z);
// What a pattern's \w is, for its \b.
const isWordChar = (c: number) => isLetter(c) || isDigit(c) || c === UNDERSCORE;
// What a pattern's \s is, among ASCII characters.
const isSpace = (c: number) => c === SPACE || (c >= TAB && c <= CARRIAGE_RETURN);

/** Whether a year (19xx, 20xx) starts at `i` and ends a word: "PyCon2025" is "PyCon 2025". */
function yearAt(text: string, i: number): boolean {
  if (i + 4 > text.length) return false;
  const c = text.charCodeAt(i);
  const d = text.charCodeAt(i + 1);
  const yearStart = (c === DIGIT_1 && d === DIGIT_9) || (c === DIGIT_2 && d === DIGIT_0);
  return yearStart && isDigit(text.charCodeAt(i + 2)) && isDigit(text.charCodeAt(i + 3)) &&
    (i + 4 === text.length || !isWordChar(text.charCodeAt(i + 4)));
}

/**
 * The folded words of an ASCII title, in order (none empty); null for a title beyond ASCII,
 * whose letters need Unicode normalisation first.
 */
export function asciiTitleTokens(title: string): string[] | null {
  const tokens: string[] = [];
  // The word being read runs from `start` (-1: none) to `cursor`.
  let start = -1;
  let cursor = 0;
  const flush = () => {
    if (start >= 0) tokens.push(title.slice(start, cursor).toLowerCase());
    start = -1;
  };
  while (cursor < title.length) {
    const c = title.charCodeAt(cursor);
    if (c > LAST_ASCII) return null;
    if (isLetter(c)) {
      if (start < 0) start = cursor;
      cursor++;
      // A year run into the word ends it.
      if (yearAt(title, cursor)) flush();
    } else if (isDigit(c)) {
      if (start < 0) start = cursor;
      cursor++;
    } else if (c === HASH) {
      // "#42" (or "# 42") numbers a meetup: the word "n42".
      flush();
      let digits = cursor + 1;
      while (digits < title.length && isSpace(title.charCodeAt(digits))) digits++;
      const from = digits;
      while (digits < title.length && isDigit(title.charCodeAt(digits))) digits++;
      if (digits > from) {
        tokens.push(`n${title.slice(from, digits)}`);
        cursor = digits;
      } else cursor++;
    } else {
      flush();
      if (c === AMPERSAND) tokens.push("and");
      else if (c === PLUS) tokens.push("plus");
      cursor++;
    }
  }
  flush();
  return tokens;
}
