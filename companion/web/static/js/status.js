// The devices: camera, wand hub, cue detector, calibration; and what to do when one is wrong.

import { deviceCards, el } from "./parts.js";
import { boot, render } from "./shell.js";

const { model } = boot("Status");
const root = document.querySelector("main");

model.onChange(() => render(root, deviceCards(model.status)));
