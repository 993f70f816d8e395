// The Python program evalplus runs in the sandbox: EvalPlus 0.3.1's get_groundtruth + check_correctness for one task.
/**
 * Usage in the sandbox: `python check.py problem.json solution.py result.json DATASET MIN_TIME_LIMIT GT_TIME_LIMIT_FACTOR`.
 * Computes the expected outputs and reference times by running the task's canonical solution (trusted_exec), then runs
 * the solution on the base and then the plus inputs, each in a child process (untrusted_check), and writes
 * {"base": [status, details], "plus": [status, details]} to result.json, as check_correctness returns them.
 */
export const CHECK_SOURCE = `
import builtins, contextlib, faulthandler, io, json, math, multiprocessing, os, signal, sys, tempfile, time
from copy import deepcopy
import multiprocessing.heap
from multiprocessing import Array, Value

import numpy as np

# Shared Values/Arrays live in /dev/shm on Linux; a sandbox without it keeps them in a temporary directory instead, and
# they go without their lock (a POSIX semaphore, in /dev/shm too): only the child writes them, the parent reads after join.
SHM = os.path.isdir("/dev/shm")
if not SHM:
    multiprocessing.heap.Arena._dir_candidates = []

PASS, FAIL, TIMEOUT = "pass", "fail", "timeout"
_SUCCESS, _FAILED, _TIMEOUT, _UNKNOWN = 0, 1, 2, 3
_mapping = {_SUCCESS: PASS, _FAILED: FAIL, _TIMEOUT: TIMEOUT, _UNKNOWN: None}

# evalplus/eval/_special_oracle.py
MBPP_OUTPUT_NOT_NONE_TASKS = ["check_str", "text_match_three", "text_starta_endb"]
MBPP_OUTPUT_SET_EQ_TASKS = ["similar_elements", "find_char_long", "common_in_nested_lists", "extract_singly", "larg_nnum", "intersection_array", "find_dissimilar", "Diff"]

def _surface_Area(base_edge, height):
    slant_height = math.sqrt((base_edge / 2) ** 2 + height**2)
    base_area = base_edge**2
    lateral_area = 4 * (base_edge * slant_height) / 2
    total_surface_area = base_area + lateral_area
    return round(total_surface_area)

def _digit_distance_nums(num1, num2):
    str_num1, str_num2 = str(num1), str(num2)
    max_length = max(len(str_num1), len(str_num2))
    str_num1, str_num2 = str_num1.zfill(max_length), str_num2.zfill(max_length)
    total_difference = 0
    for digit1, digit2 in zip(str_num1, str_num2):
        total_difference += abs(int(digit1) - int(digit2))
    return total_difference

def _poly(xs, x):
    return sum([coeff * math.pow(x, i) for i, coeff in enumerate(xs)])

# evalplus/eval/utils.py
class TimeoutException(Exception):
    pass

class WriteOnlyStringIO(io.StringIO):
    def read(self, *args, **kwargs):
        raise IOError
    def readline(self, *args, **kwargs):
        raise IOError
    def readlines(self, *args, **kwargs):
        raise IOError
    def readable(self, *args, **kwargs):
        return False

class redirect_stdin(contextlib._RedirectStream):
    _stream = "stdin"

@contextlib.contextmanager
def swallow_io():
    stream = WriteOnlyStringIO()
    with contextlib.redirect_stdout(stream):
        with contextlib.redirect_stderr(stream):
            with redirect_stdin(stream):
                yield

@contextlib.contextmanager
def time_limit(seconds):
    def signal_handler(signum, frame):
        raise TimeoutException("Timed out!")
    signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.signal(signal.SIGALRM, signal_handler)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)

def query_maximum_memory_bytes():
    maximum_memory_bytes = os.getenv("EVALPLUS_MAX_MEMORY_BYTES", 4 * 1024 * 1024 * 1024)
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    maximum_memory_bytes = min(int(maximum_memory_bytes), total)
    if maximum_memory_bytes == -1:
        return None
    return maximum_memory_bytes

def reliability_guard(maximum_memory_bytes=None):
    if maximum_memory_bytes is not None:
        import resource
        # Never above the sandbox's own hard limits (setrlimit may not raise them).
        for limit in (resource.RLIMIT_AS, resource.RLIMIT_DATA, resource.RLIMIT_STACK):
            hard = resource.getrlimit(limit)[1]
            value = maximum_memory_bytes if hard == resource.RLIM_INFINITY else min(maximum_memory_bytes, hard)
            resource.setrlimit(limit, (value, hard))
    faulthandler.disable()
    builtins.exit = None
    builtins.quit = None
    os.environ["OMP_NUM_THREADS"] = "1"
    for name in ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty", "killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod", "chown", "chroot", "lchflags", "lchmod", "lchown", "getcwd", "chdir"):
        setattr(os, name, None)
    builtins.open = None
    import shutil
    shutil.rmtree = None
    shutil.move = None
    shutil.chown = None
    import subprocess
    subprocess.Popen = None
    builtins.help = None
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None

# evalplus/eval/__init__.py
def is_floats(x):
    if isinstance(x, float):
        return True
    if isinstance(x, (list, tuple)) and x:
        return all(isinstance(i, float) for i in x)
    if isinstance(x, np.ndarray):
        return x.dtype == np.float64 or x.dtype == np.float32
    return False

def unsafe_execute(dataset, entry_point, code, inputs, expected, time_limits, atol, fast_check, stat, details, progress):
    with tempfile.TemporaryDirectory() as dirname:
        cwd = os.getcwd()
        os.chdir(dirname)
        rmtree, rmdir, chdir = __import__("shutil").rmtree, os.rmdir, os.chdir
        reliability_guard(maximum_memory_bytes=query_maximum_memory_bytes())
        exec_globals = {}
        try:
            with swallow_io():
                exec(code, exec_globals)
                fn = exec_globals[entry_point]
            for i, inp in enumerate(inputs):
                try:
                    with time_limit(time_limits[i]):
                        with swallow_io():
                            out = fn(*inp)
                    exp = expected[i]
                    exact_match = out == exp
                    if dataset == "mbpp":
                        if "are_equivalent" == entry_point:
                            exact_match = exact_match or True
                        elif "sum_div" == entry_point:
                            exact_match = exact_match or out == 0
                        elif "surface_Area" == entry_point:
                            exact_match = exact_match or abs(out - _surface_Area(*inp)) <= atol
                        elif "digit_distance_nums" == entry_point:
                            exact_match = exact_match or out == _digit_distance_nums(*inp)
                        elif entry_point in MBPP_OUTPUT_SET_EQ_TASKS:
                            exact_match = set(out) == set(exp)
                        elif entry_point in MBPP_OUTPUT_NOT_NONE_TASKS:
                            if isinstance(out, bool):
                                exact_match = out == exp
                            else:
                                exact_match = exp == (out is not None)
                    if dataset == "humaneval":
                        if "find_zero" == entry_point:
                            assert abs(_poly(*inp, out)) <= atol
                            continue
                    if atol == 0 and is_floats(exp):
                        atol = 1e-6
                    if not exact_match and atol != 0:
                        assert type(out) == type(exp)
                        if isinstance(exp, (list, tuple)):
                            assert len(out) == len(exp)
                        assert np.allclose(out, exp, rtol=1e-07, atol=atol)
                    else:
                        assert exact_match
                except BaseException:
                    details[i] = False
                    progress.value += 1
                    if fast_check:
                        raise
                    continue
                details[i] = True
                progress.value += 1
            stat.value = _SUCCESS
        except BaseException:
            stat.value = _FAILED
        __import__("shutil").rmtree, os.rmdir, os.chdir = rmtree, rmdir, chdir
        os.chdir(cwd)

def untrusted_check(dataset, code, inputs, entry_point, expected, atol, ref_time, fast_check, min_time_limit, gt_time_limit_factor):
    time_limits = [max(min_time_limit, gt_time_limit_factor * t) for t in ref_time]
    timeout = min(int(os.getenv("EVALPLUS_TIMEOUT_PER_TASK", 60)), sum(time_limits)) + 1
    if not fast_check:
        timeout += 1
    progress = Value("i", 0, lock=SHM)
    stat = Value("i", _UNKNOWN, lock=SHM)
    details = Array("b", [False for _ in range(len(inputs))], lock=SHM)
    p = multiprocessing.Process(target=unsafe_execute, args=(dataset, entry_point, code, inputs, expected, time_limits, atol, fast_check, stat, details, progress))
    p.start()
    p.join(timeout=timeout + 1)
    if p.is_alive():
        p.terminate()
        time.sleep(0.1)
    if p.is_alive():
        p.kill()
        time.sleep(0.1)
    stat = _mapping[stat.value]
    details = details[: progress.value]
    if not stat:
        stat = TIMEOUT
    if stat == PASS:
        if len(details) != len(inputs) or not all(details):
            stat = FAIL
    return stat, details

# evalplus/gen/util/__init__.py (output_not_none is never set for NeMo Gym's server: it passes task ids, not entry points)
def trusted_exec(code, inputs, entry_point):
    exec_globals = {}
    exec(code, exec_globals)
    fn = exec_globals[entry_point]
    rtime, ret = [], []
    for inp in inputs:
        inp = deepcopy(inp)
        start = time.time()
        ret.append(fn(*inp))
        rtime.append(time.time() - start)
    return ret, rtime

def main():
    problem_file, solution_file, result_file, dataset = sys.argv[1:5]
    min_time_limit, gt_time_limit_factor = float(sys.argv[5]), float(sys.argv[6])
    problem = json.load(open(problem_file))
    solution = open(solution_file).read()
    reference = problem["prompt"] + problem["canonical_solution"]
    result = {}
    for kind in ("base", "plus"):
        inputs = problem[kind + "_input"]
        expected, ref_time = trusted_exec(reference, inputs, problem["entry_point"])
        status, details = untrusted_check(dataset, solution, inputs, problem["entry_point"], expected, problem["atol"], ref_time, False, min_time_limit, gt_time_limit_factor)
        result[kind] = [status, list(details)]
    with open(result_file, "w") as f:
        f.write(json.dumps(result))

if __name__ == "__main__":
    main()
`;
