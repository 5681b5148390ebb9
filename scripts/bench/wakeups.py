"""Long-polls woken by enqueues, under load: the server's CPU per wake-up. Loopback only.

SESSIONS sessions (400) each have one poll waiting (wait=30); enqueues to every one of them come
from CONNECTIONS keep-alive connections (16); the round ends when every poll has its item. The
server's CPU time (all its threads' run time, /proc/PID/task/*/schedstat, in nanoseconds) from
the first enqueue to the last answer, divided by the polls woken: an enqueue, its commit, the
delivery to the poll and its answer. ROUNDS rounds (12); each session's queue is cancelled
between them. The wake-ups per second are bounded by this Python client, not by the server."""
import asyncio, json, os, time

from longpolls import call, poll_request, read_response_async as read_response

HOST, PORT, ADMIN, PID = "127.0.0.1", int(os.environ["PORT"]), os.environ["ADMIN"], int(os.environ["PID"])
SESSIONS = int(os.environ.get("SESSIONS", "400"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "16"))
ROUNDS = int(os.environ.get("ROUNDS", "12"))


def server_cpu_seconds():
    total = 0
    for task in os.listdir(f"/proc/{PID}/task"):
        try:
            with open(f"/proc/{PID}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except OSError:
            pass  # a thread that ended meanwhile
    return total / 1e9


async def main():
    sessions = [f"wakeups-{i}" for i in range(SESSIONS)]
    tokens = {s: json.loads(call("POST", f"/v1/sessions/{s}/token")[1])["token"] for s in sessions}
    backends = [await asyncio.open_connection(HOST, PORT) for _ in range(CONNECTIONS)]
    polls = [await asyncio.open_connection(HOST, PORT) for _ in sessions]
    per_wakeup, rates = [], []
    for turn in range(ROUNDS):
        for (_, writer), session in zip(polls, sessions):
            writer.write(poll_request(session, tokens[session], 30))
        await asyncio.sleep(0.5)  # every poll suspended, waiting

        async def enqueue_all(index):
            reader, writer = backends[index]
            for session in sessions[index::CONNECTIONS]:
                body = json.dumps({"alert": "app/saved", "dedupeKey": f"round-{turn}"}).encode()
                writer.write(f"POST /v1/sessions/{session}/queue HTTP/1.1\r\nHost: x\r\n"
                             f"Authorization: Bearer {ADMIN}\r\nContent-Type: application/json\r\n"
                             f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
                status, _ = await read_response(reader)
                assert status.startswith(b"HTTP/1.1 201"), status

        async def woken(index):
            status, _ = await read_response(polls[index][0])
            assert status.startswith(b"HTTP/1.1 200"), status

        cpu, started = server_cpu_seconds(), time.perf_counter()
        await asyncio.gather(*[enqueue_all(i) for i in range(CONNECTIONS)], *[woken(i) for i in range(SESSIONS)])
        elapsed, cpu = time.perf_counter() - started, server_cpu_seconds() - cpu
        per_wakeup.append(cpu / SESSIONS * 1e6)
        rates.append(SESSIONS / elapsed)
        for session in sessions:
            call("DELETE", f"/v1/sessions/{session}/queue")
    per_wakeup.sort()
    rates.sort()
    print(f"{SESSIONS} polls woken by enqueues from {CONNECTIONS} connections, {ROUNDS} rounds: "
          f"server CPU per wake-up median {per_wakeup[len(per_wakeup) // 2]:.0f} us "
          f"(min {per_wakeup[0]:.0f}, max {per_wakeup[-1]:.0f}); "
          f"{rates[len(rates) // 2]:.0f} wake-ups/s (this client's pace)")


asyncio.run(main())
