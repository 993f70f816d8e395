# A Python kernel kept alive in a sandbox: one JSON request a line on stdin, one JSON answer a line; variables survive.
import ast
import json
import os
import resource
import signal
import sys
import tempfile
import traceback

answers = os.fdopen(os.dup(1), "w", buffering=1)
requests = sys.stdin
namespace = {"__name__": "__main__"}


class Limit(BaseException):
    def __init__(self, stop):
        self.stop = stop


def on_alarm(signum, frame):
    raise Limit("wall_timeout")


def on_cpu(signum, frame):
    raise Limit("cpu_timeout")


signal.signal(signal.SIGALRM, on_alarm)
signal.signal(signal.SIGXCPU, on_cpu)


def run(code):
    tree = ast.parse(code, mode="exec")
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
        if value is not None:
            print(repr(value))


def read_capped(handle, limit):
    handle.flush()
    os.lseek(handle.fileno(), 0, 0)
    data = os.read(handle.fileno(), limit + 1)
    return data[:limit].decode("utf8", "replace"), len(data) > limit


for line in requests:
    request = json.loads(line)
    limit = request.get("outputBytes", 1 << 20)
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    saved = os.dup(1), os.dup(2)
    sys.stdout.flush(); sys.stderr.flush()
    os.dup2(out.fileno(), 1); os.dup2(err.fileno(), 2)
    used = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = int(used) + int(request.get("cpuSeconds", 10)) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu if hard == resource.RLIM_INFINITY else min(cpu, hard), hard))
    signal.setitimer(signal.ITIMER_REAL, request.get("wallMs", 10000) / 1000)
    stop, ok = None, True
    try:
        run(request["code"])
    except Limit as limit_hit:
        stop, ok = limit_hit.stop, False
        print("TimeoutError: code timed-out", file=sys.stderr)
    except MemoryError:
        stop, ok = "memory", False
        traceback.print_exc()
    except BaseException:
        ok = False
        traceback.print_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout.flush(); sys.stderr.flush()
        os.dup2(saved[0], 1); os.dup2(saved[1], 2)
        os.close(saved[0]); os.close(saved[1])
    stdout, cut_out = read_capped(out, limit)
    stderr, cut_err = read_capped(err, limit)
    out.close(); err.close()
    answer = {"stdout": stdout, "stderr": stderr, "ok": ok, "truncated": cut_out or cut_err}
    if stop:
        answer["stopped"] = stop
    answers.write(json.dumps(answer) + "\n")
