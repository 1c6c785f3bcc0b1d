// The wand hub's firmware (firmware/hub.py) in the real MicroPython interpreter (WebAssembly, in
// Node.js), on one end of a serial port (a socat pty), as a Pico on USB.
// Usage: node serve_hub.mjs <micropython.mjs URL> <port path> <wands> <boot id> <hub.py> <simboard.py>
// Control lines on stdin: "MASK <n>" (the inputs held down, hub.py's bit mask), "QUIT".
// On stdout: "READY", "LED <wand> <level> <hub us>" for every change of an LED pin,
// "MODES <m1> <m2> ..." whenever the LED modes the firmware holds change, "ERROR <text>".
import fs from "node:fs";
import { basename } from "node:path";
import readline from "node:readline";

const [moduleUrl, portPath, wands, bootId, ...files] = process.argv.slice(2);
const { loadMicroPython } = await import(moduleUrl);
const say = (line) => process.stdout.write(line + "\n");
const mp = await loadMicroPython({ heapsize: 4 * 1024 * 1024, stdout: (line) => say("PRINT " + line), linebuffer: true });
let port = null;

function openPort() {
  try {
    port = fs.openSync(portPath, fs.constants.O_RDWR | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
  } catch {
    port = null;
  }
}

function dropPort() {
  if (port !== null) {
    try { fs.closeSync(port); } catch {}
  }
  port = null;
}

mp.registerJsModule("host", {
  write: (text) => {
    if (port === null) return;  // unplugged: the line stays in the hub's ring for RESEND
    try { fs.writeSync(port, text); } catch { dropPort(); }
  },
  led: (wand, level, us) => say(`LED ${wand} ${level} ${us}`),
  modes: (text) => say("MODES " + text),
});
for (const file of files) {
  mp.FS.writeFile("/" + basename(file), fs.readFileSync(file, "utf8"));
}
openPort();
mp.runPython(`import simboard\nsimboard.start(${parseInt(wands)}, "${bootId}")`);
const inbox = Buffer.alloc(256);

function step() {
  if (port === null) openPort();
  if (port !== null) {
    try {
      const n = fs.readSync(port, inbox, 0, inbox.length, null);
      if (n > 0) mp.runPython(`simboard.feed(${JSON.stringify(inbox.subarray(0, n).toString("latin1"))})`);
    } catch (error) {
      if (error.code !== "EAGAIN") dropPort();
    }
  }
  try {
    mp.runPython("simboard.step()");
  } catch (error) {
    say("ERROR " + String(error).replace(/\n/g, " | "));
    process.exit(1);
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const [kind, arg] = line.split(" ");
  if (kind === "MASK") mp.runPython(`simboard.inputs.mask = ${parseInt(arg)}`);
  if (kind === "QUIT") { dropPort(); process.exit(0); }
}).on("close", () => { dropPort(); process.exit(0); });
setInterval(step, 1);
say("READY");
