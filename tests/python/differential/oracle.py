# The CPython side of the differential suite: reads batches of operations as JSON lines, answers each batch on one line.
# Standard library only. A request line is {"ops": [[name, arg, ...], ...]} (or {"define": python_source} to add
# operations); floats travel as {"f": "<16 hex digits of the IEEE bits>"} and ints as {"i": "<decimal>"}.
import json
import re
import struct
import sys
import unicodedata

sys.set_int_max_str_digits(0)

def dec(v):
    if isinstance(v, dict):
        if "f" in v and len(v) == 1:
            return struct.unpack(">d", bytes.fromhex(v["f"]))[0]
        if "i" in v and len(v) == 1:
            return int(v["i"])
        return {k: dec(x) for k, x in v.items()}
    if isinstance(v, list):
        return [dec(x) for x in v]
    return v

def enc(v):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        # A NaN's sign bit is not modelled (JS engines may canonicalise it): every NaN is the quiet positive one.
        return {"f": "7ff8000000000000" if v != v else struct.pack(">d", v).hex()}
    if isinstance(v, (list, tuple)):
        return [enc(x) for x in v]
    if isinstance(v, dict):
        return {"d": [[enc(k), enc(x)] for k, x in v.items()]}
    return {"repr": repr(v)}

# Planes 4-13 hold no character in any Unicode version up to 17.0: walked as unassigned without asking, for speed.
EMPTY_PLANES = (0x40000, 0xE0000)


def ranges(pred, empty_planes=False):
    out, start = [], None
    for cp in range(0x110001):
        if cp == EMPTY_PLANES[0]:
            ok = empty_planes
        elif EMPTY_PLANES[0] < cp < EMPTY_PLANES[1]:
            continue
        else:
            ok = cp < 0x110000 and not (0xD800 <= cp < 0xE000) and pred(chr(cp))
        if ok and start is None:
            start = cp
        if not ok and start is not None:
            out.append([start, cp - 1])
            start = None
    return out


def props():
    """Every code point's str predicates and its assignment in this CPython's Unicode version, as ranges."""
    preds = {name: getattr(str, name) for name in ["isspace", "isalpha", "isdecimal", "isdigit", "isnumeric", "isalnum", "isupper", "islower", "isprintable"]}
    out = {name: ranges(p) for name, p in preds.items()}
    out["unassigned"] = ranges(lambda c: unicodedata.category(c) == "Cn", True)
    out["unidata_version"] = unicodedata.unidata_version
    return out

def case_table():
    """[cp, lower, upper, casefold] for every code point some mapping changes."""
    rows = []
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000 or EMPTY_PLANES[0] <= cp < EMPTY_PLANES[1]:
            continue
        c = chr(cp)
        low, up, fold = c.lower(), c.upper(), c.casefold()
        if low != c or up != c or fold != c:
            rows.append([cp, low, up, fold])
    return rows

OPS = {
    "props": props,
    "case_table": case_table,
    "unassigned": lambda: ranges(lambda c: unicodedata.category(c) == "Cn", True),
    "version": lambda: list(sys.version_info[:2]),
    "repr": lambda x: repr(x),
    "findall": lambda p, s, flags: re.findall(p, s, flags),
    "findall_each": lambda ps, s, flags: ["".join(re.findall(p, s, flags)) for p in ps],
}

def run(op):
    name, *args = op
    try:
        return {"ok": enc(OPS[name](*[dec(a) for a in args]))}
    except Exception as e:  # noqa: BLE001 - every Python exception is an answer to compare
        return {"err": type(e).__name__, "msg": str(e)}

def main():
    for line in sys.stdin:
        request = json.loads(line)
        if "define" in request:
            scope = {"re": re, "json": json, "unicodedata": unicodedata, "OPS": OPS}
            exec(request["define"], scope)  # noqa: S102 - the test's own operations, from the test file
            print(json.dumps({"ok": True}), flush=True)
            continue
        print(json.dumps([run(op) for op in request["ops"]]), flush=True)

main()
