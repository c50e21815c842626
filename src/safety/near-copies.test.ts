import { describe, expect, it } from "vitest";
import { nearCopies } from "./near-copies.js";
import { indexInputs } from "./near-duplicates.js";
import { featureHash, sentenceKeys, shingleKeys } from "./text-features.js";

// nearCopies on three templates' inputs (as the bundled worlds write them): a general rule that
// shares a template's wording and one of a task's numbers is no copy of it; the task reworded,
// with a word dropped or its name or one of its numbers left out, still is.

/** A made-up name of one input, its two words found in no other (as the worlds' names are). */
const nameOf = (kind: number, at: number) => {
  const word = (n: number) =>
    ["Vel", "Mor", "Tha", "Kal", "Ost", "Fen", "Rin", "Gar"][n % 8] +
    ["dane", "mark", "vin", "zo", "lla", "by", "ric", "mir"][(n >> 3) % 8] +
    ["", "os", "eth", "un"][(n >> 6) % 4];
  return `${word(kind * 80 + at * 2)} ${word(kind * 80 + at * 2 + 1)}`;
};
const templates = [
  (at: number) =>
    `${nameOf(0, at)} spent ${at + 2} hours and ${at + 42} minutes at the workshop. How many minutes is that?`,
  (at: number) =>
    `${nameOf(1, at)} walked ${at + 103} kilometres and ${at + 300} metres along the canal. How many metres is that in total?`,
  (at: number) =>
    `${nameOf(2, at)} has a rope ${at + 150} feet long and cuts off ${at + 200} inches at the market. How many inches of rope remain?`,
];
const inputs = [
  ...templates.flatMap((template, kind) =>
    Array.from({ length: kind === 0 ? 3 : 40 }, (_, at) => template(kind === 0 ? at + 21 : at)),
  ),
  "Quenazo Faazo walked 31 kilometres and 30 metres along the canal. How many metres is that in total?",
];
/** The last input: its numbers are the calendar's. */
const canal = inputs.length - 1;
/** "Ostby Fenby spent 24 hours and 64 minutes at the workshop. How many minutes is that?" */
const target = 1;
const shingles = (text: string) => new Set(shingleKeys(sentenceKeys(text).flat()).map(featureHash));
const index = indexInputs(inputs, { dropShared: true });

describe("nearCopies", () => {
  it("a general rule sharing a task's wording and one of its numbers is no copy of it", () => {
    expect(inputs[target]).toContain("spent 24 hours and 64 minutes");
    const rules = [
      "An hour has 60 minutes and 3600 seconds; a day has 24 hours and 1440 minutes.",
      "A day has 24 hours: multiply the hours by 60 and add the minutes.",
    ];
    for (const rule of rules) expect(nearCopies(index, shingles(rule)), rule).toEqual([]);
  });

  it("rules that carry a task's numbers elsewhere than beside its words are no copy of it", () => {
    // The wording of the canal task and its numbers (31, 30), each in another place: the
    // calendar's, not the task's "31 kilometres" and "30 metres".
    const rules = [
      "Months have 31 days except April, June, September and November (30).",
      "To turn kilometres and metres into metres, multiply the kilometres by 1000 and add the metres.",
      "Walk along the canal in total: how many metres is that?",
    ].join("\n");
    expect(nearCopies(index, shingles(rules))).toEqual([]);
    const copy = "Someone walked 31 kilometres and 30 metres along a canal: metres in total?";
    expect(nearCopies(index, shingles(copy))).toEqual([canal]);
  });

  it("the task reworded, a word dropped or its name or a number left out, is a copy of it", () => {
    const task = inputs[target];
    const forms = [
      task,
      "How many minutes is it? Ostby Fenby spent 24 hours and 64 minutes in the workshop.",
      task.replace("Ostby ", ""),
      task.replace("Ostby Fenby", "Someone"),
      task.replace(" 64 minutes", " minutes"),
    ];
    for (const form of forms) expect(nearCopies(index, shingles(form)), form).toContain(target);
  });
});
