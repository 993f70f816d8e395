// The documentation, executed (3/3): the READMEs' commands against `npm run dev` and the simulator, in a fresh clone.
import { GATEWAY } from "./gateway.table.js";
import { runEntries } from "./run-entries.js";

runEntries("the READMEs' commands against the local emulation, as written", GATEWAY);
