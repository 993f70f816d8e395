// The Python kernel math_with_code keeps in the session's sandbox: NeMo Gym's _session_worker, in the kept-process framing.
/**
 * One JSON request a line on stdin (`{"code", "wallMs", …}`, environments/sdk/sandbox's kept-process framing), one JSON
 * answer a line whose `stdout` is NeMo Gym's ExecutePythonResponse as JSON. Globals and locals survive between calls.
 */
export const KERNEL_SOURCE = String.raw`
import io, json, signal, sys
from contextlib import redirect_stderr, redirect_stdout
import numpy as np
import pandas as pd
import scipy

MAX_EXECUTION_TIME = int(sys.argv[1]) if len(sys.argv) > 1 else 10
answers = sys.stdout
exec_globals = {
    "__builtins__": {"print": print, "len": len, "str": str, "int": int, "float": float, "list": list, "dict": dict, "tuple": tuple, "set": set, "min": min, "max": max, "sum": sum, "abs": abs, "range": range, "enumerate": enumerate, "zip": zip, "__import__": __import__},
    "np": np, "numpy": np, "scipy": scipy, "pd": pd, "pandas": pd,
}
exec_locals = {}

def on_alarm(signum, frame):
    raise TimeoutError("code timed-out")

def last_expression_value(code):
    lines = code.strip().split("\n")
    if not lines:
        return None
    last = lines[-1].strip()
    if last.startswith(("print", "import", "from", "def", "class", "if", "for", "while", "try", "with")):
        return None
    try:
        return str(eval(last, exec_globals, exec_locals))
    except Exception:
        return None

def execute(code):
    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(MAX_EXECUTION_TIME)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            exec(code, exec_globals, exec_locals)
            result = last_expression_value(code)
    finally:
        signal.alarm(0)
    return {"success": True, "stdout": out.getvalue(), "stderr": err.getvalue(), "error_message": None, "result": result}

for line in sys.stdin:
    request = json.loads(line)
    try:
        response = execute(request["code"])
    except Exception as e:
        response = {"success": False, "stdout": "", "stderr": "", "error_message": str(e), "result": None}
    answers.write(json.dumps({"stdout": json.dumps(response), "stderr": "", "ok": True, "truncated": False}) + "\n")
    answers.flush()
`;
