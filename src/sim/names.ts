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

/** Fictional names that never repeat within one generator (the tasks' key phrases). */
export class NameBook {
  private readonly used = new Set<string>();
  constructor(private readonly rng: Rng) {}

  private unique(make: () => string): string {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const name = make();
      if (!this.used.has(name.toLowerCase())) {
        this.used.add(name.toLowerCase());
        return name;
      }
    }
    throw new Error("NameBook: ran out of fictional names");
  }

  /** A person: two fictional words. */
  person(): string {
    return this.unique(() => `${word(this.rng)} ${word(this.rng)}`);
  }
  /** An organisation: a fictional word and a trade. */
  organisation(): string {
    return this.unique(() => `${word(this.rng)} ${this.rng.pick(orgSuffixes)}`);
  }
  /** A town. */
  place(): string {
    return this.unique(
      () => `${this.rng.pick(starts)}${this.rng.pick(middles)}${this.rng.pick(placeSuffixes)}`,
    );
  }
  /** A region. */
  region(): string {
    return this.unique(() => `${word(this.rng)} ${this.rng.pick(regionSuffixes)}`);
  }
}
