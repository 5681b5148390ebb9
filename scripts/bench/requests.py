"""A fixed number of requests over keep-alive connections, for counting the server's work
(scripts/bench-instructions.sh): each connection sends its share one after another and checks
every status. Loopback only; no timing is printed.

    python3 requests.py PORT WORKLOAD COUNT CONNECTIONS ROUND

WORKLOAD: enqueue (new parameters and a new dedupe key each, as scripts/bench/enqueue.lua, 50
sessions per connection), hit (the render endpoint, one cached alert), 304 (the same with
If-None-Match naming its tag) or miss (the render endpoint with new parameters each, as
scripts/bench/render-miss.lua) or cycle (enqueue -> next -> ack, as scripts/bench/cycle.c, one
session per connection; COUNT counts requests, three a cycle; PACING in the environment, a JSON
member such as "pacing":{...}, rides on each of its enqueues). ROUND makes the sessions, keys and parameters of one run differ
from another's."""
import asyncio, http.client, json, os, sys

PORT, WORKLOAD, COUNT, CONNECTIONS, ROUND = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
ADMIN = "bench-admin-token"
PACING = "," + os.environ["PACING"] if os.environ.get("PACING") else ""

def enqueue(worker, index):
    n = worker * 1_000_000 + index
    body = f'{{"alert":"app/newMessages","params":{{"count":1,"sender":"{ROUND}-{n}"}},"dedupeKey":"{ROUND}-{n}"}}'.encode()
    head = (f"POST /v1/sessions/i{ROUND}-{worker}-{index % 50}/queue HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bearer {ADMIN}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode() + body, b"HTTP/1.1 201"

HIT_PATH = "/v1/catalogs/app/alerts/questionExit?locale=zh-Hans"

def hit(worker, index):
    return f"GET {HIT_PATH} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), b"HTTP/1.1 200"

def current_tag():
    """The hit's entity tag, asked for once (it follows the catalog's text)."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    conn.request("GET", HIT_PATH)
    response = conn.getresponse()
    response.read()
    return response.getheader("ETag")

def not_modified(tag):
    request = f"GET {HIT_PATH} HTTP/1.1\r\nHost: x\r\nIf-None-Match: {tag}\r\n\r\n".encode()
    return lambda worker, index: (request, b"HTTP/1.1 304")

def miss(worker, index):
    path = f"/v1/catalogs/app/alerts/newMessages?locale=zh-Hans&count={index}&sender={ROUND}-{worker}"
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), b"HTTP/1.1 200"

async def exchange(reader, writer, request, expected):
    """Sends one request and returns its body, once its status is the one expected."""
    writer.write(request)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(expected):
        raise SystemExit(f"unexpected answer: {head[:80]!r}")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    return await reader.readexactly(length)

async def connection(worker, count, make):
    reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
    for index in range(count):
        await exchange(reader, writer, *make(worker, index))
    writer.close()

def post(path, token, body):
    body = body.encode()
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body

def session_token(session):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    conn.request("POST", f"/v1/sessions/{session}/token", headers={"Authorization": f"Bearer {ADMIN}"})
    return json.loads(conn.getresponse().read())["token"]

async def cycles(worker, count):
    """enqueue -> next -> ack on one session, count requests in all."""
    session = f"c{ROUND}-{worker}"
    token = session_token(session)
    reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
    for index in range(count // 3):
        await exchange(reader, writer, post(f"/v1/sessions/{session}/queue", ADMIN,
                                            f'{{"alert":"app/questionExit","dedupeKey":"c{index}"{PACING}}}'), b"HTTP/1.1 201")
        body = await exchange(reader, writer, f"GET /v1/sessions/{session}/next HTTP/1.1\r\nHost: x\r\n"
                              f"Authorization: Bearer {token}\r\n\r\n".encode(), b"HTTP/1.1 200")
        ticket = json.loads(body)["ticket"]
        await exchange(reader, writer, post(f"/v1/sessions/{session}/queue/{ticket}/ack", token,
                                            '{"action":"leave"}'), b"HTTP/1.1 200")
    writer.close()

async def main():
    if WORKLOAD == "cycle":
        return await asyncio.gather(*[cycles(w, COUNT // CONNECTIONS) for w in range(CONNECTIONS)])
    make = not_modified(current_tag()) if WORKLOAD == "304" else {"enqueue": enqueue, "hit": hit, "miss": miss}[WORKLOAD]
    await asyncio.gather(*[connection(w, COUNT // CONNECTIONS, make) for w in range(CONNECTIONS)])

asyncio.run(main())
