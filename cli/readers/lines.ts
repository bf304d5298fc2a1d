/** Splits streamed text into lines without holding more than one line and one chunk. */

/** A line of text without its terminator, numbered from 1. */
export interface Line {
  text: string;
  number: number;
}

/** Yields the lines of `chunks`; CRLF, LF and lone CR all end a line. */
export async function* lines(chunks: AsyncIterable<string>): AsyncGenerator<Line> {
  let carry = "";
  let number = 0;
  let pendingCr = false;
  for await (const chunk of chunks) {
    let text = chunk;
    // A CR at the end of the previous chunk may be the first half of a CRLF.
    if (pendingCr && text.startsWith("\n")) text = text.slice(1);
    pendingCr = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      yield { text: carry + text.slice(start, i), number: ++number };
      carry = "";
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          pendingCr = true;
        }
      }
      start = i + 1;
    }
    carry += text.slice(start);
  }
  if (carry !== "") yield { text: carry, number: ++number };
}
