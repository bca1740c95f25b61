import { describe, expect, it } from "vitest";
import { sameFields, sameItems } from "./use-same";

describe("sameItems / sameFields", () => {
  const a = { id: "a" };
  const b = { id: "b" };
  it("arrays of the same objects in the same order are the same; anything else is not", () => {
    expect(sameItems([a, b], [a, b])).toBe(true);
    expect(sameItems([a, b], [b, a])).toBe(false);
    expect(sameItems([a], [a, b])).toBe(false);
    expect(sameItems([a], [{ id: "a" }])).toBe(false);
    expect(sameItems([], [])).toBe(true);
  });
  it("compares items with the given test", () => {
    expect(sameItems([{ id: "a", data: a }], [{ id: "a", data: a }], sameFields)).toBe(true);
    expect(sameItems([{ id: "a", data: a }], [{ id: "a", data: { id: "a" } }], sameFields)).toBe(false);
  });
  it("objects are the same when every own field holds the same value, and no field is missing or added", () => {
    expect(sameFields({ x: 1, y: a }, { x: 1, y: a })).toBe(true);
    expect(sameFields({ x: 1, y: a }, { x: 2, y: a })).toBe(false);
    expect(sameFields<Record<string, unknown>>({ x: 1 }, { x: 1, y: undefined })).toBe(false);
    expect(sameFields({ x: Number.NaN }, { x: Number.NaN })).toBe(true);
  });
});
