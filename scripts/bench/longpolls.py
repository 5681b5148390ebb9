"""Holds N long-polls suspended in alertd, reports the server's memory per waiter, then
measures how fast an enqueue wakes a waiting poll (p50/p99 over many rounds). Loopback only."""
import asyncio, json, os, resource, statistics, sys, time, urllib.request

HOST, PORT = "127.0.0.1", int(os.environ["PORT"])
ADMIN, PID = os.environ["ADMIN"], int(os.environ["PID"])
WAITERS, ROUNDS = int(os.environ.get("WAITERS", "10000")), int(os.environ.get("ROUNDS", "200"))

def call(method, path, body=None, token=ADMIN):
    req = urllib.request.Request(f"http://{HOST}:{PORT}{path}", method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req) as r:
        return r.status, r.read()

def rss_kib():
    for line in open(f"/proc/{PID}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

async def poll(session, token, wait=30):
    reader, writer = await asyncio.open_connection(HOST, PORT)
    writer.write(f"GET /v1/sessions/{session}/next?wait={wait} HTTP/1.1\r\nHost: x\r\n"
                 f"Authorization: Bearer {token}\r\n\r\n".encode())
    await writer.drain()
    status = await reader.readline()
    writer.close()
    return status

async def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sessions = [f"lp-{i}" for i in range(100)]
    tokens = {s: json.loads(call("POST", f"/v1/sessions/{s}/token")[1])["token"] for s in sessions}
    before = rss_kib()
    tasks = [asyncio.create_task(poll(sessions[i % 100], tokens[sessions[i % 100]])) for i in range(WAITERS)]
    # Until every poll is held: the server's memory stops growing (checked twice a second).
    held, deadline = rss_kib(), time.monotonic() + 20
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        now = rss_kib()
        if now - held < 64 and sum(not t.done() for t in tasks) == WAITERS:
            break
        held = now
    print(f"long-polls held: {WAITERS}; server RSS {before} KiB -> {held} KiB: "
          f"{(held - before) * 1024 / WAITERS:.0f} bytes per waiter")
    # Leave them waiting: the wake-up rounds below run with 10,000 polls suspended around them
    # (the server answers each at its 30 s deadline).

    token = json.loads(call("POST", "/v1/sessions/wake/token")[1])["token"]
    # The enqueue goes over one keep-alive connection opened beforehand, so the figure is the
    # server's: from the enqueue's last byte sent to the poll's status line read.
    reader, writer = await asyncio.open_connection(HOST, PORT)
    latencies = []
    for round in range(ROUNDS):
        waiter = asyncio.create_task(poll("wake", token, wait=10))
        await asyncio.sleep(0.02)  # let it suspend
        body = json.dumps({"alert": "app/saved", "dedupeKey": f"w{round}"}).encode()
        writer.write(f"POST /v1/sessions/wake/queue HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ADMIN}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        await writer.drain()
        start = time.perf_counter()
        status = await waiter
        latencies.append((time.perf_counter() - start) * 1000)
        assert status.startswith(b"HTTP/1.1 200"), status
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        await reader.readexactly(length)
        call("DELETE", "/v1/sessions/wake/queue")
    writer.close()
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print(f"enqueue -> woken poll, {ROUNDS} rounds, {WAITERS} other polls waiting: "
          f"p50 {p(0.5):.2f} ms, p99 {p(0.99):.2f} ms")

asyncio.run(main())
