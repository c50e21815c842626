import { guardText } from "./guard-text.js";

/**
 * The one normal form every content comparison reads (answers, labels, task inputs, harness
 * text): the text after `guardText` (NFKC, invisible characters removed, Latin look-alikes
 * folded) and HTML entities decoded, cut into tokens. A word is a run of letters, lower-cased; a
 * number is a run of digits read as a value — thousands separators (`4,542`, `4'542`, `4_542`)
 * folded, a decimal point or comma read (`287.0` is `287`, `37,3` is `37.3`), the sign and any
 * unit around it apart (`287coins` is `287` and `coins`). Everything else (spaces, `-`, `_`,
 * punctuation) only separates tokens, so `Brimark-Works`, `brimark_works` and `Brimark Works`
 * are the same two words; arithmetic signs are kept as operator tokens for `derivedNumbers`.
 */

/** One token of the normal form. */
export interface NormalToken {
  kind: "word" | "number" | "op";
  /**
   * The compared form: a word lower-cased; a number's digits without group separators, with a
   * canonical fraction (`287.0` → `287`, `37.30` → `37.3`), leading zeros kept; an operator's
   * symbol.
   */
  key: string;
  /** For numbers: every value the digits can be read as, canonical (leading zeros dropped), the primary first. */
  values: string[];
  /** For numbers: the digits and separators as written. */
  written?: string;
  /** For a minus: written between spaces (` - `). */
  spaced?: boolean;
  /** The 0-based line the token is on. */
  line: number;
}

/** A few named HTML entities a model or a scraped task may carry, and what they stand for. */
const namedEntities: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  times: "×",
  divide: "÷",
  minus: "−",
};

/** `text` with HTML character references (`&amp;`, `&#39;`, `&#x27;`) decoded; unknown names kept. */
function decodeEntities(text: string): string {
  return text.replace(
    /&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]{2,8});/g,
    (whole, body: string) => {
      if (body.startsWith("#")) {
        const point = /^#[xX]/.test(body)
          ? Number.parseInt(body.slice(2), 16)
          : Number.parseInt(body.slice(1), 10);
        return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : whole;
      }
      return namedEntities[body.toLowerCase()] ?? whole;
    },
  );
}

/** Decimal digits of other scripts (Arabic-Indic `٤`, Devanagari `४`, …) as ASCII digits. */
function asciiDigits(text: string): string {
  return text.replace(/(?![0-9])\p{Nd}/gu, (char) => {
    const point = char.codePointAt(0) ?? 0;
    // Every Unicode decimal digit block is ten consecutive code points starting at zero.
    let value = 0;
    while (value < 9 && /\p{Nd}/u.test(String.fromCodePoint(point - value - 1))) value += 1;
    return String(value);
  });
}

/** `text` as the normal form reads it before cutting it into tokens. */
export function normalText(text: string): string {
  const guarded = guardText(text);
  const decoded = guarded.includes("&") ? guardText(decodeEntities(guarded)) : guarded;
  // Only text with a character past ASCII can hold another script's digits.
  return /[^ -~\s]/.test(decoded) ? asciiDigits(decoded) : decoded;
}

const tokenPattern = /\d+(?:[.,'’_]\d+)*|[\p{L}\p{M}]+|\n|[ \t]+[-−][ \t]+|[×*+/÷=−·-]/gu;

/** Cuts `text` into its normal-form tokens (see the module comment). */
export function normalTokens(text: string): NormalToken[] {
  const tokens: NormalToken[] = [];
  let line = 0;
  // One array of strings, classified by their first character: far cheaper than match objects.
  for (const piece of normalText(text).match(tokenPattern) ?? []) {
    const first = piece.charCodeAt(0);
    if (first === 10) line += 1;
    else if (first >= 48 && first <= 57)
      for (const token of numberTokens(piece, line)) tokens.push(token);
    else if (piece.length === 1 && operators.has(piece))
      tokens.push({ kind: "op", key: piece === "−" ? "-" : piece, values: [], line });
    // A minus between spaces is a subtraction, never the hyphen of `forty-two`.
    else if (first === 32 || first === 9)
      tokens.push({ kind: "op", key: "-", values: [], line, spaced: true });
    else tokens.push({ kind: "word", key: piece.toLowerCase(), values: [], line });
  }
  return joinSpaceGroups(tokens);
}

const operators = new Set(["×", "*", "+", "/", "÷", "=", "−", "·", "-"]);

/** The tokens a word or number key is compared on (operators dropped). */
export function contentTokens(tokens: readonly NormalToken[]): NormalToken[] {
  return tokens.filter((token) => token.kind !== "op");
}

/**
 * A number's value in canonical form: no leading zeros (one kept before the point), no trailing
 * fractional zeros, no point without a fraction. `007` → `7`, `287.0` → `287`, `.50` → `0.5`.
 */
export function canonicalNumber(integer: string, fraction = ""): string {
  const whole = integer.replace(/^0+(?=\d)/, "") || "0";
  const part = fraction.replace(/0+$/, "");
  return part ? `${whole}.${part}` : whole;
}

/** A digit run with separators, read as one number (all its readings) or as a list of numbers. */
function numberTokens(digits: string, line: number): NormalToken[] {
  const groups = digits.split(/[.,'’_]/);
  const seps = digits.match(/[.,'’_]/g) ?? [];
  const number = (values: string[], written: string): NormalToken => ({
    kind: "number",
    key: values[0],
    values: [...new Set(values)],
    written,
    line,
  });
  if (seps.length === 0) return [{ ...number([canonicalNumber(digits)], digits), key: digits }];
  const readings = numberReadings(groups, seps);
  return readings.length > 0
    ? [number(readings, digits)]
    : groups.map((group) => number([canonicalNumber(group)], group));
}

/** The values `groups` joined by `seps` read as, the likeliest first; empty when they are a list. */
function numberReadings(groups: string[], seps: string[]): string[] {
  const [head, ...rest] = groups;
  const last = groups[groups.length - 1];
  const grouped = (kinds: string[], tail: string[]) =>
    kinds.every((sep) => sep === kinds[0]) &&
    tail.every((group) => group.length === 3) &&
    (kinds[0] === "_" || head.length <= 3);
  if (seps.length === 1 && (seps[0] === "." || seps[0] === ",")) {
    const decimal = canonicalNumber(head, last);
    const thousands = grouped(seps, rest) ? [canonicalNumber(head + last)] : [];
    // `4,542` is 4542 first in English text, `4.542` 4.542; `37,3` is 37.3 or the list 37, 3.
    if (seps[0] === "." || thousands.length === 0)
      return [
        decimal,
        ...thousands,
        ...(seps[0] === "," ? groups.map((group) => canonicalNumber(group)) : []),
      ];
    return [...thousands, decimal];
  }
  if (grouped(seps, rest)) return [canonicalNumber(groups.join(""))];
  const point = seps[seps.length - 1];
  if (
    (point === "." || point === ",") &&
    seps[0] !== point &&
    grouped(seps.slice(0, -1), rest.slice(0, -1))
  )
    return [canonicalNumber(groups.slice(0, -1).join(""), last)];
  return [];
}

/**
 * Numbers grouped by a plain space (`4 542`, `12 345 678`, `1 029.5`) are also read as one: the
 * first token of the group gets the joined value as an extra reading. The separate readings stay.
 */
function joinSpaceGroups(tokens: NormalToken[]): NormalToken[] {
  for (let index = 0; index < tokens.length; index += 1) {
    const head = tokens[index];
    if (head.kind !== "number" || !/^\d{1,3}$/.test(head.written ?? "")) continue;
    let integer = head.written ?? "";
    let fraction = "";
    let next = index + 1;
    while (!fraction && isGroup(tokens[next], head.line)) {
      const [group, decimals = ""] = (tokens[next].written ?? "").split(/[.,]/);
      integer += group;
      fraction = decimals;
      next += 1;
    }
    if (next > index + 1) head.values.push(canonicalNumber(integer, fraction));
  }
  return tokens;
}

/** A token that continues a space-grouped number: three digits, the last maybe with decimals. */
function isGroup(token: NormalToken | undefined, line: number): token is NormalToken {
  return (
    token !== undefined &&
    token.kind === "number" &&
    token.line === line &&
    /^\d{3}(?:[.,]\d+)?$/.test(token.written ?? "")
  );
}
