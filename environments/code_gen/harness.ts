// The Python program code_gen runs in the sandbox: LiveCodeBench's grading (NeMo Gym's lcb_integration/testing_util.py).
/**
 * Usage in the sandbox: `python grade.py tests.json solution.py result.json TIMEOUT`. Writes {"result": [...], "metadata":
 * {...}} to result.json, as run_test returns them; the program's own stdout is captured, never the channel.
 */
export const GRADER_SOURCE = String.raw`
import ast, faulthandler, json, signal, sys, time, traceback
from decimal import Decimal
from io import StringIO
from types import ModuleType
from unittest.mock import mock_open, patch

sys.set_int_max_str_digits(50000)
IMPORTS = "from string import *\nfrom re import *\nfrom datetime import *\nfrom collections import *\nfrom heapq import *\nfrom bisect import *\nfrom copy import *\nfrom math import *\nfrom random import *\nfrom statistics import *\nfrom itertools import *\nfrom functools import *\nfrom operator import *\nfrom io import *\nfrom sys import *\nfrom json import *\nfrom builtins import *\nfrom typing import *\nimport string\nimport re\nimport datetime\nimport collections\nimport heapq\nimport bisect\nimport copy\nimport math\nimport random\nimport statistics\nimport itertools\nimport functools\nimport operator\nimport io\nimport sys\nimport json\nsys.setrecursionlimit(50000)\n"

class TimeoutException(Exception):
    pass

def on_alarm(signum, frame):
    raise TimeoutException

def cut(s, length=300):
    s = s if isinstance(s, str) else str(s)
    return s if len(s) <= length else s[: length // 2] + "...(truncated) ..." + s[-length // 2 :]

class Capturing(list):
    def __enter__(self):
        self._stdout = sys.stdout
        sys.stdout = self._io = StringIO()
        return self
    def __exit__(self, *args):
        self.append(self._io.getvalue())
        sys.stdout = self._stdout

class Buffer:
    def __init__(self, inputs):
        self.inputs = inputs.encode("utf-8")
    def read(self, *args):
        return self.inputs
    def readline(self, *args):
        return self.inputs.split(b"\n")[0] + b"\n"

class Stdin:
    def __init__(self, inputs):
        self.inputs = inputs
        self._io = StringIO(inputs)
        self.buffer = Buffer(inputs)
    def read(self, *args):
        return self.inputs
    def readline(self, *args):
        return self._io.readline(*args)
    def readlines(self, *args):
        return self.inputs.split("\n")
    def __iter__(self):
        return self
    def __next__(self):
        return next(self._io)
    def __getattr__(self, name):
        return getattr(self._io, name)

def without_main_guard(code):
    try:
        tree = ast.parse(code)
        last = tree.body[-1]
        if isinstance(last, ast.If) and ast.unparse(last.test).strip() == "__name__ == '__main__'":
            code = ast.unparse(tree.body[:-1]) + "\n" + ast.unparse(last.body)
    except:
        pass
    return code

def as_function(code):
    try:
        tree = ast.parse(code)
        imports = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
        rest = [s for s in tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))]
        fn = ast.FunctionDef(name="wrapped_function", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=rest, decorator_list=[], lineno=-1)
        return IMPORTS + "\n" + ast.unparse(imports) + "\n" + ast.unparse(fn)
    except Exception:
        return code

def call(method, inputs):
    if isinstance(inputs, list):
        inputs = "\n".join(inputs)
    lines = iter(inputs.split("\n"))
    @patch("builtins.open", mock_open(read_data=inputs))
    @patch("sys.stdin", Stdin(inputs))
    @patch("sys.stdin.readline", lambda *args: next(lines))
    @patch("sys.stdin.readlines", lambda *args: inputs.split("\n"))
    @patch("sys.stdin.read", lambda *args: inputs)
    def inner(m):
        try:
            return m()
        except SystemExit:
            pass
    return inner(method)

def compile_code(code, timeout):
    signal.alarm(timeout)
    try:
        module = ModuleType("tmp_sol", "")
        exec(code, module.__dict__)
        compiled = module.Solution() if "class Solution" in code else module
        assert compiled is not None
    finally:
        signal.alarm(0)
    return compiled

def decimals(line):
    try:
        return True, [Decimal(x) for x in line.split()]
    except:
        return False, []

def stripped_lines(value):
    return [line.strip() for line in value.strip().split("\n")]

def failure(results, code, e, gt_inp, gt_out):
    if "timeoutexception" in repr(e).lower():
        results.append(-3)
        return results, {"error": repr(e), "error_code": -3, "error_message": "Time Limit Exceeded", "inputs": cut(gt_inp), "expected": cut(gt_out)}
    results.append(-4)
    return results, {"error": repr(e), "error_code": -4, "error_message": "Runtime Error", "inputs": cut(gt_inp), "expected": cut(gt_out), "traceback": traceback.format_exc()}

def grade_stdio(code, inputs, outputs, timeout):
    compiled = compile_code(as_function(without_main_guard(code)), timeout)
    method = getattr(compiled, "wrapped_function", None)
    if method is None:
        return None
    results, total = [], 0
    for gt_inp, gt_out in zip(inputs, outputs):
        signal.alarm(timeout)
        with Capturing() as captured:
            try:
                start = time.time()
                call(method, gt_inp)
                total += time.time() - start
                signal.alarm(0)
            except Exception as e:
                signal.alarm(0)
                return failure(results, code, e, gt_inp, gt_out)
            finally:
                signal.alarm(0)
        prediction = captured[0]
        got, want = stripped_lines(prediction), stripped_lines(gt_out)
        wrong = {"output": cut(prediction), "inputs": cut(gt_inp), "expected": cut(gt_out), "error_code": -2}
        if len(got) != len(want):
            results.append(-2)
            wrong["error_message"] = "Wrong answer: mismatched output length"
            return results, wrong
        for output_line_idx, (a, b) in enumerate(zip(got, want)):
            wrong["error_message"] = f"Wrong answer at {output_line_idx=}: {cut(a)} != {cut(b)}"
            if a == b:
                continue
            ok_a, da = decimals(a)
            ok_b, db = decimals(b)
            if not ok_a or not ok_b or da != db:
                results.append(-2)
                return results, wrong
        results.append(True)
    return results, {"execution time": total}

def grade_call(code, inputs, outputs, fn_name, timeout):
    compiled = compile_code(IMPORTS + "\n\n" + code, timeout)
    method = getattr(compiled, fn_name, None)
    if method is None:
        return None
    inputs = [[json.loads(line) for line in i.split("\n")] for i in inputs]
    outputs = [json.loads(o) for o in outputs]
    results, total = [], 0
    for gt_inp, gt_out in zip(inputs, outputs):
        signal.alarm(timeout)
        try:
            start = time.time()
            prediction = method(*gt_inp)
            total += time.time() - start
            signal.alarm(0)
            if isinstance(prediction, tuple):
                prediction = list(prediction)
            ok = prediction == gt_out
            try:
                ok = ok or (json.dumps(prediction) == json.dumps(gt_out))
            except Exception:
                pass
            try:
                import numpy as np
                ok = ok or bool(np.allclose(float(prediction), float(gt_out)))
            except Exception:
                pass
            results.append(ok)
            if not ok:
                return results, {"output": cut(prediction), "inputs": cut(gt_inp), "expected": cut(gt_out), "error_code": -2, "error_message": "Wrong Answer"}
        except Exception as e:
            signal.alarm(0)
            return failure(results, code, e, gt_inp, gt_out)
        finally:
            signal.alarm(0)
    return results, {"execution time": total}

def main():
    tests_file, solution_file, result_file, timeout = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    tests = json.load(open(tests_file))
    code = open(solution_file).read()
    signal.signal(signal.SIGALRM, on_alarm)
    fn_name = tests.get("fn_name")
    signal.alarm(timeout)
    try:
        graded = grade_stdio(code, tests["inputs"], tests["outputs"], timeout) if fn_name is None else grade_call(code, tests["inputs"], tests["outputs"], fn_name, timeout)
        # A solution without its function: run_test's caller unpacks None and fails as a test-framework error.
        out = {"result": graded[0], "metadata": graded[1]} if graded is not None else {"result": [-4], "metadata": {"error_code": -4, "error_message": "Error during testing: cannot unpack non-iterable NoneType object"}}
    except Exception as e:
        out = {"result": [-4], "metadata": {"error_code": -4, "error_message": f"Error during testing: {e}"}}
    finally:
        signal.alarm(0)
    with open(result_file, "w") as f:
        f.write(json.dumps(out))

main()
`;
