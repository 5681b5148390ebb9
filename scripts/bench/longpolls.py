"""Holds N long-polls suspended in alertd, reports the server's memory per waiter, then
measures how fast an enqueue wakes a waiting poll (p50/p99 over many rounds). Loopback only.

Two processes: a child holds the N polls (asyncio, one socket each); this one measures the
wake-ups with two plain blocking sockets. Measured from the loop that also held 10,000 sockets,
a wake-up now and then waited for that loop (its garbage collector, its callbacks): up to a
millisecond or two of the client's own in a p99 that should be the server's.

Each round also times a `GET /livez` after the same idle gap: what this VM takes to wake a
thread of the server and one of the client, with no work between, the share of a wake-up's time
that is the machine's rather than alertd's. (Its p99 stayed under about a millisecond where the
wake-up's reached 3–7 ms: see docs/benchmarks.md for where the rest goes.)"""
import asyncio, json, os, resource, socket, subprocess, sys, time, urllib.request

HOST, PORT = "127.0.0.1", int(os.environ["PORT"])
ADMIN = os.environ["ADMIN"]
WAITERS, ROUNDS = int(os.environ.get("WAITERS", "10000")), int(os.environ.get("ROUNDS", "400"))

def call(method, path, body=None, token=ADMIN):
    req = urllib.request.Request(f"http://{HOST}:{PORT}{path}", method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req) as r:
        return r.status, r.read()

def poll_request(session, token, wait):
    return (f"GET /v1/sessions/{session}/next?wait={wait} HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bearer {token}\r\n\r\n").encode()

def hold():
    """The child: opens WAITERS polls over 100 sessions, prints how many were sent and how many
    could not connect, and keeps them waiting until stdin closes: a poll the server answers at
    its deadline (204) is sent again on its connection. The waits are spread from 20 to 30 s,
    as a crowd of apps would be, so that a run longer than a wait (ROUNDS past ~800) measures
    with every poll still waiting and their deadlines spread out, not 10,000 answered at once."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sessions = [f"lp-{i}" for i in range(100)]
    tokens = {s: json.loads(call("POST", f"/v1/sessions/{s}/token")[1])["token"] for s in sessions}

    counts = {"sent": 0, "failed": 0}
    async def poll(index):
        session, wait = sessions[index % 100], 20 + index % 11
        try:
            reader, writer = await asyncio.open_connection(HOST, PORT)
            writer.write(poll_request(session, tokens[session], wait))
            await writer.drain()
        except OSError:
            reader = None
            counts["failed"] += 1
        else:
            counts["sent"] += 1
        if counts["sent"] + counts["failed"] == WAITERS:
            print(counts["sent"], counts["failed"], flush=True)
        while reader:
            status, _ = await read_response_async(reader)
            if not status.startswith(b"HTTP/1.1 204"):
                break
            writer.write(poll_request(session, tokens[session], 30))
        if reader:
            writer.close()

    async def main():
        tasks = [asyncio.create_task(poll(i)) for i in range(WAITERS)]
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for task in tasks: task.cancel()
    asyncio.run(main())

async def read_response_async(reader):
    """One HTTP response from `reader`: (status line, its body)."""
    status, length = parse_head(await reader.readuntil(b"\r\n\r\n"))
    return status, await reader.readexactly(length)

def parse_head(head):
    """A response's head: (status line, Content-Length or 0)."""
    lines = head.rstrip(b"\r\n").split(b"\r\n")
    length = next((int(line.split(b":")[1]) for line in lines if line.lower().startswith(b"content-length")), 0)
    return lines[0], length

def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

def read_response(sock, buffered=b""):
    """One HTTP response from `sock`: (status line, bytes read past it)."""
    data = buffered
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, rest = data.split(b"\r\n\r\n", 1)
    status, length = parse_head(head)
    while len(rest) < length:
        rest += sock.recv(65536)
    return status, rest[length:]

def measure():
    pid = int(os.environ["PID"])
    before = rss_kib(pid)
    holder = subprocess.Popen([sys.executable, __file__, "--hold"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    sent, failed = map(int, holder.stdout.readline().split())
    if failed:
        print(f"{failed} of {WAITERS} polls could not connect")
    # Until every poll is held: the server's memory stops growing (checked twice a second).
    held, deadline = rss_kib(pid), time.monotonic() + 20
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = rss_kib(pid)
        if now - held < 64:
            break
        held = now
    print(f"long-polls held: {sent}; server RSS {before} KiB -> {held} KiB: "
          f"{(held - before) * 1024 / max(sent, 1):.0f} bytes per waiter")
    # Leave them waiting: the wake-up rounds below run with 10,000 polls suspended around them.

    token = json.loads(call("POST", "/v1/sessions/wake/token")[1])["token"]
    # The enqueue goes over one keep-alive connection opened beforehand, so the figure is the
    # server's: from the enqueue's last byte sent to the poll's status line read.
    backend = socket.create_connection((HOST, PORT))
    backend.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    leftover, latencies, floor = b"", [], []
    for round in range(ROUNDS):
        app = socket.create_connection((HOST, PORT))
        app.sendall(poll_request("wake", token, 10))
        # Let it suspend: 20 ms in all, the floor's request in the middle, so that it and the
        # enqueue each come after 10 ms of idle (before the floor, the enqueue came after 20).
        time.sleep(0.01)
        # This VM's floor, measured the same way after the same idle gap: a request that does no
        # work (`/livez`), answered on the worker that read it, so two thread wake-ups (server,
        # then client) where a wake-up has those and its own work between them.
        backend.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
        start = time.perf_counter()
        status, leftover = read_response(backend, leftover)
        floor.append((time.perf_counter() - start) * 1000)
        assert status.startswith(b"HTTP/1.1 200"), status
        time.sleep(0.01)
        body = json.dumps({"alert": "app/saved", "dedupeKey": f"w{round}"}).encode()
        backend.sendall(f"POST /v1/sessions/wake/queue HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ADMIN}\r\n"
                        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        start = time.perf_counter()
        first = app.recv(65536)
        latencies.append((time.perf_counter() - start) * 1000)
        assert first.startswith(b"HTTP/1.1 200"), first
        app.close()
        status, leftover = read_response(backend, leftover)
        assert status.startswith(b"HTTP/1.1 201"), status
        call("DELETE", "/v1/sessions/wake/queue")
    backend.close()
    holder.stdin.close()
    holder.wait()
    def figures(values):
        values = sorted(values)
        p = lambda q: values[min(len(values) - 1, int(q * len(values)))]
        return f"p50 {p(0.5):.2f} ms, p99 {p(0.99):.2f} ms, max {values[-1]:.2f} ms"
    print(f"enqueue -> woken poll, {ROUNDS} rounds, {sent} other polls waiting: {figures(latencies)}")
    print(f"  floor, GET /livez after the same idle gap: {figures(floor)}")

if __name__ == "__main__":
    hold() if sys.argv[1:] == ["--hold"] else measure()
