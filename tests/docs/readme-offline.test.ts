// The documentation, executed (2/3): the README's commands that need no running gateway, run in a fresh clone.
import { OFFLINE } from "./offline.table.js";
import { runEntries } from "./run-entries.js";

runEntries("the README's commands without a gateway, as written", OFFLINE);
