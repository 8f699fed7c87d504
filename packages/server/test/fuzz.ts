import fc from 'fast-check';
import { z } from 'zod';

// Requests for the fuzz test: built from each endpoint's zod schema (through its JSON Schema, the
// documented form of it), from arbitrary JSON, and from values that once broke a route.

/** The parts of JSON Schema that zod's toJSONSchema writes for the contract. */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
}

/** Text that once answered HTTP 500 somewhere, or that parsers and databases treat specially. */
const hostileText = fc.constantFrom(
  '\u0000',
  'ab\u0000cd',
  '\ud800',
  'a\udc00b',
  '\u001b[31m',
  '\u202e',
  '9999-12-31',
  '9999-99-99',
  '9999-13-01',
  '2024-02-30',
  '0000-00-00',
  '1e309',
  '-1',
  '0',
  '0x10',
  'true',
  '[1]',
  '__proto__',
  'constructor',
  '%',
  '_',
  '"',
  "'; drop table member; --",
  '<script>alert(1)</script>',
  'x'.repeat(5000),
);

/** Values of the wrong shape: objects that break String(), nesting, numbers at the edges. */
const hostileShape = fc.constantFrom<unknown>(
  { toString: 1 },
  { valueOf: 1 },
  { toString: null, valueOf: null },
  JSON.parse('{"__proto__":{"admin":1}}'),
  [[[[[]]]]],
  [1],
  [],
  {},
  true,
  false,
  null,
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 53,
  -(2 ** 63),
  1e308,
  -0,
);

export const hostile: fc.Arbitrary<unknown> = fc.oneof(hostileText, hostileShape);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** 'yyyy-MM-dd' text: real days, and days shaped like one that are not (month 13, day 99, year 9999). */
export const dateLike: fc.Arbitrary<string> = fc.oneof(
  fc.date({ min: new Date(-62135596800000), max: new Date(253402300799000), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc
    .tuple(fc.oneof(fc.constantFrom(0, 1899, 1900, 2100, 2101, 9999), fc.integer({ min: 0, max: 9999 })), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  fc.constantFrom('9999-12-31', '9999-99-99', '9999-13-01', '2024-02-30', '2100-12-31', '1900-01-01'),
);

/** Text of every kind: printable, any code unit, dates right and wrong, and the hostile ones. */
const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  dateLike,
  hostileText,
);

/** Values a named field often holds, so generated requests reach rows that exist. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

function stringOf(s: JsonSchema): fc.Arbitrary<string> {
  const sized = fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 24, 64) });
  if (!s.pattern) return fc.oneof(sized, anyText);
  // Some patterns cannot be generated from (lookarounds); those fall back to plain strings.
  let matching: fc.Arbitrary<string> = sized;
  try {
    matching = fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= Math.max(s.maxLength ?? 64, 1));
  } catch {
    // keep sized
  }
  return fc.oneof({ weight: 3, arbitrary: matching }, { weight: 1, arbitrary: anyText });
}

/** Values that fit a JSON Schema, most of the time; sometimes not, as a client's may not. */
export function fromSchema(s: JsonSchema, hints: Hints = {}, depth = 0): fc.Arbitrary<unknown> {
  const inner = (x: JsonSchema) => fromSchema(x, hints, depth + 1);
  if (depth > 6) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union) return fc.oneof(...union.map(inner));
  if (s.allOf) return fc.tuple(...s.allOf.map(inner)).map((parts) => Object.assign({}, ...parts.filter((p) => p && typeof p === 'object')));
  switch (s.type) {
    case 'string':
      return stringOf(s);
    case 'integer':
      return fc.oneof(fc.integer({ min: s.minimum ?? -10, max: s.maximum ?? 50 }), fc.integer({ min: 1, max: 40 }), fc.integer());
    case 'number':
      return fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer(), fc.double({ noNaN: false }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(s.items ? inner(s.items) : fc.jsonValue(), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 5, 5) });
    case 'object': {
      const props = s.properties ?? {};
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(props)) shape[key] = hints[key] ? fc.oneof({ weight: 2, arbitrary: hints[key]! }, { weight: 1, arbitrary: inner(sub) }) : inner(sub);
      return fc.record(shape, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** One or more fields of an object replaced by hostile values (anything else: a hostile value). */
const mutated = (base: fc.Arbitrary<unknown>, keys: string[]) =>
  fc.tuple(base, fc.array(fc.tuple(fc.constantFrom(...(keys.length ? keys : ['x'])), hostile), { minLength: 1, maxLength: Math.max(keys.length, 1) })).map(([v, bad]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? { ...v, ...Object.fromEntries(bad) } : bad[0]![1],
  );

/** Requests for one part (body or query) of an endpoint: from its schema, mutated, arbitrary JSON. */
export function inputsFor(schema: z.ZodType | undefined, hints: Hints): fc.Arbitrary<unknown> {
  const json = schema ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : { type: 'object' };
  const base = fromSchema(json, hints);
  const keys = Object.keys(json.properties ?? {});
  return fc.oneof(
    { weight: 4, arbitrary: base },
    { weight: 3, arbitrary: mutated(base, keys) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: hostile },
  );
}

/** A query string's values: text, or a list (a key given twice); anything else arrives as its JSON text. */
export function asQuery(value: unknown): Record<string, string | string[]> {
  const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { q: JSON.stringify(value) ?? '' };
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.map(text) : text(v);
  }
  return out;
}

/** A multipart body as a broken or honest client might send it: parts, files, cut anywhere. */
export const multipart: fc.Arbitrary<{ contentType: string; payload: Buffer }> = fc
  .record({
    boundary: fc.oneof(fc.constant('XyZ'), fc.string({ minLength: 1, maxLength: 70 })),
    // No boundary, the right one, or another.
    declared: fc.oneof(fc.constant<string | null>(null), fc.constant('right'), fc.string({ maxLength: 10 })),
    filename: fc.oneof(fc.constant('a.xlsx'), fc.string({ maxLength: 20 })),
    file: fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }).map((b) => Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...b]))),
    cut: fc.option(fc.nat(), { nil: undefined }),
    header: fc.oneof(fc.constant('Content-Disposition: form-data; name="file"; filename="{f}"'), fc.string({ maxLength: 60 })),
  })
  .map(({ boundary, declared, filename, file, cut, header }) => {
    const whole = Buffer.concat([
      Buffer.from(`--${boundary}\r\n${header.replace('{f}', filename)}\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.from(file),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const contentType = declared === null ? 'multipart/form-data' : `multipart/form-data; boundary=${declared === 'right' ? boundary : declared}`;
    return { contentType, payload: cut === undefined ? whole : whole.subarray(0, cut % (whole.length + 1)) };
  });
