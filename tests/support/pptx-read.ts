// Reads a .pptx back for tests: each slide's text (the <a:t> runs, in order), its speaker
// notes, and what it holds (native charts, images). Independent of the writer: it reads the
// Office Open XML parts as PowerPoint would.
import JSZip from "jszip";

export interface ReadSlide {
  text: string;
  notes: string;
  charts: string[];
  images: string[];
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
const texts = (xml: string) => [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => decode(m[1]!));

export async function readPptx(bytes: Uint8Array): Promise<{ slides: ReadSlide[]; files: string[]; chartXml: Record<string, string> }> {
  const zip = await JSZip.loadAsync(bytes);
  const files = Object.keys(zip.files);
  const n = files.filter((f) => /^ppt\/slides\/slide\d+\.xml$/.test(f)).length;
  const slides: ReadSlide[] = [];
  const chartXml: Record<string, string> = {};
  for (let i = 1; i <= n; i++) {
    const xml = await zip.file(`ppt/slides/slide${i}.xml`)!.async("string");
    const rels = (await zip.file(`ppt/slides/_rels/slide${i}.xml.rels`)?.async("string")) ?? "";
    const targets = [...rels.matchAll(/Target="([^"]+)"/g)].map((m) => m[1]!.replace(/^\.\.\//, "ppt/").replace(/^\//, ""));
    const notesPart = targets.find((t) => /notesSlide/.test(t));
    const notes = notesPart ? texts((await zip.file(notesPart)?.async("string")) ?? "").join(" ") : "";
    const charts = targets.filter((t) => /charts\/chart\d+\.xml$/.test(t));
    for (const c of charts) chartXml[c] = (await zip.file(c)?.async("string")) ?? "";
    slides.push({ text: texts(xml).join(""), notes, charts, images: targets.filter((t) => /media\//.test(t)) });
  }
  return { slides, files, chartXml };
}
