// Parse RDF files with independent JavaScript parsers and print their quad and triple counts as JSON.
// Turtle, N-Triples, TriG and N-Quads go through N3.js; JSON-LD through jsonld.js (toRDF). A
// JSON-LD file's relative @context is read from disk beside it; no URL is ever fetched.
//   node count.mjs FILE...   ->   {"FILE": {"quads": N, "triples": M}, ...}
import { readFileSync } from "node:fs";
import { pathToFileURL, fileURLToPath } from "node:url";
import N3 from "n3";
import jsonld from "jsonld";

const N3_FORMATS = { ".ttl": "Turtle", ".nt": "N-Triples", ".trig": "TriG", ".nq": "N-Quads" };

function termKey(t) {
  if (t.termType === "Literal") return `"${t.value}"^^${t.datatype.value}@${t.language}`;
  return `${t.termType}:${t.value}`;
}

function counts(quads) {
  const q = new Set(), t = new Set();
  for (const x of quads) {
    const triple = `${termKey(x.subject)} ${termKey(x.predicate)} ${termKey(x.object)}`;
    t.add(triple);
    q.add(`${triple} ${x.graph ? termKey(x.graph) : ""}`);
  }
  return { quads: q.size, triples: t.size };
}

const loader = async (url) => {
  if (!url.startsWith("file:")) throw new Error(`refusing to fetch ${url}: benchkg's files must not need the network`);
  return { contextUrl: null, documentUrl: url, document: JSON.parse(readFileSync(fileURLToPath(url), "utf8")) };
};

const out = {};
for (const file of process.argv.slice(2)) {
  const ext = file.slice(file.lastIndexOf("."));
  const text = readFileSync(file, "utf8");
  if (ext in N3_FORMATS) {
    out[file] = counts(new N3.Parser({ format: N3_FORMATS[ext] }).parse(text));
  } else if (ext === ".jsonld") {
    const quads = await jsonld.toRDF(JSON.parse(text), { base: pathToFileURL(file).href, documentLoader: loader, safe: true });
    out[file] = counts(quads);
  } else {
    throw new Error(`no parser for ${file}`);
  }
}
console.log(JSON.stringify(out));
