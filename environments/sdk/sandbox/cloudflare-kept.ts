// The kept-process driver the Cloudflare provider writes into its container: the SDK's processes take no stdin, so a kernel
// reads its requests from a FIFO and each `send` is one exec of this driver (request in, the kernel's answer line out).
/**
 * `python3 kept.py ensure NAME` → `{"id", "alive"}`: the live kernel of that name, or a new id whose FIFO is made;
 * `python3 kept.py run ID -- ARGV…` (started by the SDK's startProcess): its own process group, stdin the FIFO (opened
 * read-write, so it never sees end of file), stdout appended to a file; then exec's ARGV;
 * `python3 kept.py send ID REQUEST_FILE WALL_MS` → one JSON line: `{"answer": <the kernel's line>}` or, when the kernel
 * is gone or passed WALL_MS (+ grace; then it is killed, as the local service kills it), `{"gone", "timedOut", "stderr"}`.
 * Exit 3 from `send`: no kernel of that id (sandbox_gone).
 */
export const KEPT_DRIVER_SOURCE = String.raw`
import fcntl, json, os, signal, sys, time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "edgegym-kept")
GRACE_S = 2.0

def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False

def pid_of(d):
    try:
        with open(os.path.join(d, "pid")) as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return 0

def ensure(name):
    names = os.path.join(ROOT, "names")
    os.makedirs(names, exist_ok=True)
    current = os.path.join(names, name)
    try:
        with open(current) as f:
            kid = f.read().strip()
        pid = pid_of(os.path.join(ROOT, kid))
        if pid and alive(pid):
            return {"id": kid, "alive": True}
    except OSError:
        pass
    kid = "%s-%s" % (name, os.urandom(6).hex())
    d = os.path.join(ROOT, kid)
    os.makedirs(d)
    os.mkfifo(os.path.join(d, "in"), 0o600)
    open(os.path.join(d, "out"), "w").close()
    with open(current + ".tmp", "w") as f:
        f.write(kid)
    os.replace(current + ".tmp", current)
    return {"id": kid, "alive": False}

def run(kid, argv):
    d = os.path.join(ROOT, kid)
    try:
        os.setsid()
    except OSError:
        pass  # already a session leader (started so by the SDK): its group is its own
    stdin = os.open(os.path.join(d, "in"), os.O_RDWR)
    stdout = os.open(os.path.join(d, "out"), os.O_WRONLY | os.O_APPEND)
    stderr = os.open(os.path.join(d, "err"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(stdin, 0); os.dup2(stdout, 1); os.dup2(stderr, 2)
    with open(os.path.join(d, "pid"), "w") as f:
        f.write(str(os.getpid()))
    os.execvp(argv[0], argv)

def tail(path, limit=4096):
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.path.getsize(path) - limit))
            return f.read().decode("utf8", "replace")
    except OSError:
        return ""

def send(kid, request_file, wall_ms):
    d = os.path.join(ROOT, kid)
    if not os.path.isdir(d):
        sys.exit(3)
    lock = open(os.path.join(d, "lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    with open(request_file, "rb") as f:
        request = f.read()
    os.unlink(request_file)
    deadline = time.monotonic() + wall_ms / 1000 + GRACE_S
    out = os.path.join(d, "out")
    start = os.path.getsize(out)
    # The kernel may still be starting (startProcess returned before it opened its FIFO): wait for its reader.
    writer = None
    while writer is None:
        try:
            writer = os.open(os.path.join(d, "in"), os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            pid = pid_of(d)
            if (pid and not alive(pid)) or time.monotonic() > deadline:
                return {"gone": True, "timedOut": False, "stderr": tail(os.path.join(d, "err"))}
            time.sleep(0.01)
    os.set_blocking(writer, True)
    os.write(writer, request if request.endswith(b"\n") else request + b"\n")
    os.close(writer)
    while True:
        with open(out, "rb") as f:
            f.seek(start)
            data = f.read()
        newline = data.find(b"\n")
        if newline >= 0:
            return {"answer": json.loads(data[:newline])}
        pid = pid_of(d)
        if pid and not alive(pid):
            return {"gone": True, "timedOut": False, "stderr": tail(os.path.join(d, "err"))}
        if time.monotonic() > deadline:
            if pid:
                os.killpg(pid, signal.SIGKILL)
            return {"gone": True, "timedOut": True, "stderr": tail(os.path.join(d, "err"))}
        time.sleep(0.005)

command = sys.argv[1]
if command == "ensure":
    print(json.dumps(ensure(sys.argv[2])))
elif command == "run":
    run(sys.argv[2], sys.argv[4:])
elif command == "send":
    print(json.dumps(send(sys.argv[2], sys.argv[3], int(sys.argv[4]))))
else:
    sys.exit(2)
`;

/** The driver's file name in the provider's scratch directory (/tmp); its FIFOs go beside it, under edgegym-kept/. */
export const KEPT_DRIVER_FILE = "edgegym-kept.py";
