// Call an ES module's function on many arguments, for tests that compare it with Python.
//   node tools/run_js.mjs < request.json
// Request: {"module": "<path>", "function": "<name> (or a table it exports)", "calls": [[arg, ...], ...], "first": [arg, ...]};
// the optional "first" arguments go before each call's own (one large object, decoded once).
// A double travels (in lists and objects too) as the string "f:<16 hex digits of its IEEE bits>" (exact, inf and NaN
// included); other JSON values pass as they are. The answer is the list of results, on stdout.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const view = new DataView(new ArrayBuffer(8));
const decode = (v) => {
  if (typeof v === "string" && v.startsWith("f:")) {
    view.setBigUint64(0, BigInt("0x" + v.slice(2)));
    return view.getFloat64(0);
  }
  if (Array.isArray(v)) return v.map(decode);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
  return v;
};
const encode = (v) => {
  if (typeof v === "number") {
    view.setFloat64(0, v);
    return "f:" + view.getBigUint64(0).toString(16).padStart(16, "0");
  }
  if (Array.isArray(v)) return v.map(encode);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]));
  return v;
};

const request = JSON.parse(readFileSync(0, "utf8"));
const module = await import(pathToFileURL(resolve(request.module)).href);
const exported = module[request.function];
if (exported === undefined) throw new Error(`${request.module} exports no ${request.function}`);
// A function is called; any other export (a table such as FORMATS) is read: exported[key].
const fn = typeof exported === "function" ? exported : (key) => exported[key];
const first = decode(request.first ?? []);
process.stdout.write(JSON.stringify(request.calls.map((args) => encode(fn(...first, ...decode(args))))));
