// Runs firmware scenarios under the real MicroPython interpreter (WebAssembly port, in Node.js).
// Usage: node run_micropython.mjs <micropython.mjs URL> <entry module> <file.py>...
// Each file is placed at the interpreter's root under its own name (hub.py is imported as `hub`,
// as on the Pico); then `<entry>.run_all()` runs. Prints the output; exits non-zero on an error.
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const [moduleUrl, entry, ...files] = process.argv.slice(2);
const { loadMicroPython } = await import(moduleUrl);
const lines = [];
const mp = await loadMicroPython({ heapsize: 4 * 1024 * 1024, stdout: (line) => lines.push(line), linebuffer: true });
for (const file of files) {
  mp.FS.writeFile("/" + basename(file), readFileSync(file, "utf8"));
}
let failed = false;
try {
  mp.runPython(`import sys\nprint('IMPL ' + sys.implementation.name)\nimport ${entry}\n${entry}.run_all()`);
} catch (error) {
  failed = true;
  lines.push("ERROR " + String(error).replace(/\n/g, " | "));
}
process.stdout.write(lines.join("\n") + "\n");
process.exit(failed ? 1 : 0);
