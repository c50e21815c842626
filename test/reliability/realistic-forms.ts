import fc from "fast-check";

// Generators of the forms a model plausibly writes when it copies an answer or a task into a
// harness (issue #25), written independently of the guards' own normal form.

/** English words for an integer below a billion (`287` → `two hundred eighty-seven`). */
export function spelledOut(value: number, hyphen = true): string {
  const small =
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(
      " ",
    );
  const tens = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(" ");
  const belowHundred = (n: number) =>
    n < 20
      ? small[n]
      : `${tens[Math.floor(n / 10)]}${n % 10 ? `${hyphen ? "-" : " "}${small[n % 10]}` : ""}`;
  const belowThousand = (n: number) =>
    n < 100
      ? belowHundred(n)
      : `${small[Math.floor(n / 100)]} hundred${n % 100 ? ` ${belowHundred(n % 100)}` : ""}`;
  const parts: string[] = [];
  for (const [scale, name] of [
    [1e6, "million"],
    [1e3, "thousand"],
  ] as const) {
    if (value >= scale) {
      parts.push(`${belowThousand(Math.floor(value / scale))} ${name}`);
      value %= scale;
    }
  }
  if (value > 0 || parts.length === 0) parts.push(belowThousand(value));
  return parts.join(" ");
}

/** A number written with group separators (every 3 digits from the right). */
export function grouped(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** The ways a number answer gets written: separators, a `.0`, a sign, a unit glued on or apart. */
export const numberStyle = fc.record({
  separator: fc.constantFrom("", ",", "'", "_", "\u00A0", "\u202F", " "),
  zeros: fc.constantFrom("", ".0", ".00"),
  sign: fc.constantFrom("", "+"),
  unit: fc.constantFrom("", "coins", "kg", "items", " units", "m"),
});
export type NumberStyle = typeof numberStyle extends fc.Arbitrary<infer T> ? T : never;

/** `value` (an integer or a decimal string) written in `style`. */
export function styledNumber(value: string, style: NumberStyle): string {
  const [integer, fraction] = value.split(".");
  const digits = grouped(integer, style.separator);
  const tail = fraction ? `.${fraction}${style.zeros.slice(1)}` : style.zeros;
  return `${style.sign}${digits}${tail}${style.unit}`;
}

/** The ways a multi-word name gets joined and cased. */
export const nameStyle = fc.record({
  join: fc.constantFrom("-", "_", "", " ", "  "),
  casing: fc.constantFrom("as-is", "lower", "upper", "camel"),
});
export type NameStyle = typeof nameStyle extends fc.Arbitrary<infer T> ? T : never;

export function styledName(name: string, style: NameStyle): string {
  const words = name.split(/\s+/);
  const cased = words.map((word, index) => {
    if (style.casing === "lower") return word.toLowerCase();
    if (style.casing === "upper") return word.toUpperCase();
    if (style.casing === "camel")
      return index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase();
    return word;
  });
  return cased.join(style.join);
}

/** An arithmetic step whose result is `value` (a positive integer), as a model would write it. */
export const arithmetic = (value: number) =>
  fc
    .record({
      kind: fc.constantFrom("times", "plus", "minus", "divided"),
      other: fc.integer({ min: 2, max: 97 }),
      word: fc.boolean(),
      spelled: fc.boolean(),
      named: fc.boolean(),
    })
    .map(({ kind, other, word, spelled, named }) => {
      const say = (n: number) => (spelled && n < 1000 ? spelledOut(n) : String(n));
      const divisor = [other, 2, 3, 5, 7, 11, 13].find((d) => value % d === 0 && value / d > 1);
      if (kind === "times" && divisor) {
        if (named) return `the product of ${say(divisor)} and ${say(value / divisor)}`;
        return `${say(divisor)} ${word ? "times" : "×"} ${say(value / divisor)}`;
      }
      if (kind === "minus") return `${say(value + other)} ${word ? "minus" : "-"} ${say(other)}`;
      if (kind === "divided")
        return `${say(value * other)} ${word ? "divided by" : "/"} ${say(other)}`;
      const part = Math.min(other, value - 1);
      if (named) return `the sum of ${say(value - part)} and ${say(part)}`;
      return `${say(value - part)} ${word ? "plus" : "+"} ${say(part)}`;
    });

/** Common words a model swaps for a synonym when it rewords a task (never a name or number). */
export const synonyms: Readonly<Record<string, string>> = {
  buys: "purchases",
  many: "much",
  items: "things",
  total: "all",
  saves: "puts aside",
  spends: "uses",
  left: "remaining",
  walked: "hiked",
  spent: "passed",
  workshop: "shop",
  recipe: "dish",
  needs: "requires",
  signed: "inked",
  lease: "contract",
  inspection: "check",
  using: "with",
  registry: "records",
  what: "which",
  sent: "shipped",
  parcel: "package",
  bound: "headed",
  weighs: "is",
  tracking: "trace",
  code: "number",
  is: "was",
  the: "a",
  of: "for",
  in: "within",
  on: "upon",
  and: "plus",
  does: "did",
  how: "what",
  each: "every",
  packs: "boxes",
  gives: "hands",
  away: "out",
  shares: "splits",
  equally: "evenly",
  rest: "remainder",
  later: "after",
  earlier: "before",
  opens: "starts",
  close: "end",
  date: "day",
  a: "one",
};

/** A rewording of `input`: clauses swapped, up to two words changed (a synonym, a word dropped). */
export const reworded = (input: string) =>
  fc
    .record({
      swap: fc.boolean(),
      synonyms: fc.integer({ min: 0, max: 2 }),
      drop: fc.boolean(),
      seed: fc.nat(1_000_000),
    })
    .filter(
      (form) =>
        (form.swap || form.synonyms > 0 || form.drop) && form.synonyms + Number(form.drop) <= 2,
    )
    .map(({ swap, synonyms: count, drop, seed }) => {
      let state = seed + 1;
      const next = (n: number) => {
        state = (state * 48271) % 2147483647;
        return state % n;
      };
      let clauses = input.split(/(?<=[.?!,])\s+/);
      if (swap && clauses.length > 1) {
        const at = 1 + next(clauses.length - 1);
        clauses = [...clauses.slice(at), ...clauses.slice(0, at)];
      }
      const words = clauses.join(" ").split(" ");
      const swappable = words.flatMap((word, at) => (synonyms[word.toLowerCase()] ? [at] : []));
      for (let left = count; left > 0 && swappable.length > 0; left -= 1) {
        const [at] = swappable.splice(next(swappable.length), 1);
        words[at] = synonyms[words[at].toLowerCase()];
      }
      if (drop && words.length > 4) words.splice(next(words.length), 1);
      return words.join(" ");
    });
