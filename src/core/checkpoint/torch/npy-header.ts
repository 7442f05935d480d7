import { CheckpointError } from '../../errors';

/** The three fields of a `.npy` header. */
export interface NpyHeader {
  readonly descr: string;
  readonly fortranOrder: boolean;
  readonly shape: readonly number[];
}

type HeaderValue = string | boolean | number[];

/**
 * Parses numpy's header, a Python dict literal such as
 * `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }`. Only quoted
 * strings, True/False and tuples of integers are accepted: it is parsed, never evaluated.
 */
export function parseNpyHeader(text: string, label: string): NpyHeader {
  let position = 0;
  const fail = (what: string): never => {
    throw new CheckpointError(`${label}: its npy header is not the dict numpy writes (${what} at character ${position} of "${text.trim().slice(0, 120)}").`);
  };
  const skipSpace = () => {
    while (position < text.length && /\s/.test(text[position])) position++;
  };
  const expect = (char: string) => {
    skipSpace();
    if (text[position] !== char) fail(`expected '${char}'`);
    position++;
  };
  const parseString = (): string => {
    skipSpace();
    const quote = text[position];
    if (quote !== "'" && quote !== '"') fail('expected a quoted string');
    const end = text.indexOf(quote, position + 1);
    if (end < 0) fail('an unclosed string');
    const value = text.slice(position + 1, end);
    position = end + 1;
    return value;
  };
  const parseValue = (): HeaderValue => {
    skipSpace();
    if (text.startsWith('True', position)) { position += 4; return true; }
    if (text.startsWith('False', position)) { position += 5; return false; }
    if (text[position] === '(') {
      position++;
      const sizes: number[] = [];
      for (;;) {
        skipSpace();
        if (text[position] === ')') { position++; return sizes; }
        const digits = /^\d+/.exec(text.slice(position, position + 20));
        if (!digits) fail('expected a size');
        sizes.push(Number((digits as RegExpExecArray)[0]));
        position += (digits as RegExpExecArray)[0].length;
        skipSpace();
        if (text[position] === ',') position++;
        else if (text[position] !== ')') fail("expected ',' or ')'");
      }
    }
    if (text[position] === '[') fail('a structured dtype (a list of fields), which is not read');
    return parseString();
  };

  const fields = new Map<string, HeaderValue>();
  expect('{');
  for (;;) {
    skipSpace();
    if (text[position] === '}') break;
    const key = parseString();
    expect(':');
    fields.set(key, parseValue());
    skipSpace();
    if (text[position] === ',') position++;
    else if (text[position] !== '}') fail("expected ',' or '}'");
  }
  const descr = fields.get('descr');
  const fortranOrder = fields.get('fortran_order');
  const shape = fields.get('shape');
  if (typeof descr !== 'string' || typeof fortranOrder !== 'boolean' || !Array.isArray(shape)) {
    return fail("missing 'descr', 'fortran_order' or 'shape'");
  }
  return { descr, fortranOrder, shape };
}
