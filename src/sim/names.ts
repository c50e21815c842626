import type { Rng } from "./draw.js";

const starts = [
  "Or",
  "Val",
  "Quen",
  "Bri",
  "Tel",
  "Dor",
  "Ash",
  "Cor",
  "Zel",
  "Thar",
  "Mir",
  "Kal",
  "Sen",
  "Fa",
  "Rin",
  "Ves",
  "Nor",
  "Hal",
  "Ys",
  "Bel",
  "Gar",
  "Lun",
  "Pell",
  "Ost",
];
const middles = ["a", "e", "i", "o", "ve", "ra", "li", "mo", "da", "ne", "ru", "sa"];
const ends = [
  "lla",
  "by",
  "mark",
  "wen",
  "dric",
  "sta",
  "vin",
  "rel",
  "thos",
  "mir",
  "dane",
  "lis",
  "ven",
  "rick",
  "zo",
];
const orgSuffixes = ["Freight", "Works", "Guild", "Mills", "Press", "Foundry", "Traders", "Looms"];
const placeSuffixes = ["ford", "holm", "wick", "stead", "mere", "gate", "moor"];
const regionSuffixes = ["Reach", "Vale", "Marches", "Downs", "Coast"];

function word(rng: Rng): string {
  const middle = rng.next() < 0.5 ? rng.pick(middles) : "";
  return rng.pick(starts) + middle + rng.pick(ends);
}

/**
 * Fictional names that never repeat within one generator (the tasks' key phrases). Each kind
 * draws from a plain space first; a world large enough to exhaust it (a few thousand places per
 * world) goes on with a longer form of the same shape (one capitalised word stays one word, so
 * the families' parsers read it alike). A world that fits the plain space draws exactly the
 * names it always did.
 */
export class NameBook {
  private readonly used = new Set<string>();
  /** Kinds whose plain space ran out: they draw the longer form from then on. */
  private readonly exhausted = new Set<string>();
  constructor(private readonly rng: Rng) {}

  private unique(kind: string, make: () => string, longer: () => string): string {
    const forms = this.exhausted.has(kind) ? [longer] : [make, longer];
    for (const form of forms) {
      for (let attempt = 0; attempt < 1000; attempt++) {
        const name = form();
        if (!this.used.has(name.toLowerCase())) {
          this.used.add(name.toLowerCase());
          return name;
        }
      }
      this.exhausted.add(kind);
    }
    throw new Error(`NameBook: ran out of fictional ${kind} names`);
  }

  /** A person: two fictional words. */
  person(): string {
    return this.unique(
      "person",
      () => `${word(this.rng)} ${word(this.rng)}`,
      () => `${longWord(this.rng)} ${longWord(this.rng)}`,
    );
  }
  /** An organisation: a fictional word and a trade. */
  organisation(): string {
    return this.unique(
      "organisation",
      () => `${word(this.rng)} ${this.rng.pick(orgSuffixes)}`,
      () => `${longWord(this.rng)} ${this.rng.pick(orgSuffixes)}`,
    );
  }
  /** A town. */
  place(): string {
    return this.unique(
      "place",
      () => `${this.rng.pick(starts)}${this.rng.pick(middles)}${this.rng.pick(placeSuffixes)}`,
      () =>
        `${this.rng.pick(starts)}${this.rng.pick(middles)}${this.rng.pick(middles)}${this.rng.pick(placeSuffixes)}`,
    );
  }
  /** A region. */
  region(): string {
    return this.unique(
      "region",
      () => `${word(this.rng)} ${this.rng.pick(regionSuffixes)}`,
      () => `${longWord(this.rng)} ${this.rng.pick(regionSuffixes)}`,
    );
  }
}

/** A word of the longer form: two middles (about 12 times the plain space). */
function longWord(rng: Rng): string {
  return rng.pick(starts) + rng.pick(middles) + rng.pick(middles) + rng.pick(ends);
}
