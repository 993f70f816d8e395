// Python's json.dumps for the SDK; the implementation lives with the other Python semantics in ./python/.
export { pythonJsonDumps } from "./python/json-dumps.js";
