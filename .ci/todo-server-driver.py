#!/usr/bin/env python3
"""Drives Examples/TodoServer over real HTTP on loopback (issue 32), for .ci/todo-server.sh.

    todo-server-driver.py api      BASE_URL ENGINE [SERVER_LOG]  every endpoint, the bad inputs, one SSE client
    todo-server-driver.py load     BASE_URL PID STATE_FILE      writes under load, SIGTERM mid-way; acked ids saved
    todo-server-driver.py verify   BASE_URL STATE_FILE          after a restart: every acknowledged write is there

Every answer must be JSON; an error's body is {"error": {"status", "code", "message"}} with the
HTTP status; no request may get a 500. Exits non-zero with a message on the first failure.
"""
import http.client
import json
import os
import signal
import sys
import threading
import time
import urllib.parse

FAILURES = []


def fail(message):
    print(f"todo-server-driver: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


class Client:
    def __init__(self, base):
        parsed = urllib.parse.urlparse(base)
        self.host, self.port = parsed.hostname, parsed.port

    def request(self, method, path, body=None, raw=None, headers=None, timeout=10):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        all_headers = {"Connection": "close"}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        text = response.read()
        connection.close()
        status = response.status
        check(status != 500, f"{method} {path} answered 500: {text[:300]!r}")
        payload = None
        if text:
            try:
                payload = json.loads(text)
            except ValueError:
                fail(f"{method} {path} answered {status} with a body that is not JSON: {text[:200]!r}")
        if status >= 400:
            check(isinstance(payload, dict) and isinstance(payload.get("error"), dict),
                  f"{method} {path} answered {status} without a JSON error: {payload!r}")
            check(payload["error"].get("status") == status,
                  f"{method} {path}: the error's status {payload['error'].get('status')} is not {status}")
            check(payload["error"].get("message"), f"{method} {path}: the error has no message")
        return status, payload

    def expect(self, status, method, path, body=None, **kwargs):
        got, payload = self.request(method, path, body, **kwargs)
        check(got == status, f"{method} {path} answered {got}, expected {status}: {payload!r}")
        return payload


def api(base, engine, server_log=None):
    c = Client(base)
    health = c.expect(200, "GET", "/health")
    check(health == {"status": "ok", "database": engine}, f"health: {health!r}")

    # Lists: create, duplicate, bad input.
    groceries = c.expect(201, "POST", "/lists", {"title": "  Groceries  "})
    check(groceries["title"] == "Groceries" and groceries["itemCount"] == 0, f"created list: {groceries!r}")
    chores = c.expect(201, "POST", "/lists", {"title": "Chores"})
    c.expect(409, "POST", "/lists", {"title": "Groceries"})                       # UNIQUE constraint
    c.expect(422, "POST", "/lists", {"title": "   "})                             # empty title
    c.expect(422, "POST", "/lists", {"title": "x" * 201})                         # too long
    c.expect(400, "POST", "/lists", raw=b'{"title": "unterminated')               # malformed JSON
    c.expect(400, "POST", "/lists", raw=b'[1, 2, 3]')                             # not an object
    c.expect(400, "POST", "/lists", {"title": 42})                                # wrong type
    c.expect(400, "POST", "/lists", {"name": "no title"})                         # missing key
    c.expect(413, "POST", "/lists", raw=json.dumps({"title": "y" * 70_000}).encode())  # over 64 KiB
    for index in range(3):
        c.expect(201, "POST", "/lists", {"title": f"Extra {index}"})

    # Items: create, into a missing list (foreign key), bad input.
    gid = groceries["id"]
    milk = c.expect(201, "POST", f"/lists/{gid}/items", {"title": "Milk"})
    check(milk["listId"] == gid and milk["done"] is False, f"created item: {milk!r}")
    eggs = c.expect(201, "POST", f"/lists/{gid}/items", {"title": "Eggs", "done": True})
    oat = c.expect(201, "POST", f"/lists/{gid}/items", {"title": "Oat milk"})
    c.expect(201, "POST", f"/lists/{chores['id']}/items", {"title": "Dishes"})
    c.expect(404, "POST", "/lists/999999/items", {"title": "Orphan"})              # FOREIGN KEY constraint
    c.expect(422, "POST", f"/lists/{gid}/items", {"title": ""})
    c.expect(400, "POST", f"/lists/{gid}/items", {"title": "Bread", "done": "yes"})
    c.expect(400, "POST", f"/lists/{gid}/items", raw=b"not json at all")

    # Reading lists: the item count per list, pagination.
    page = c.expect(200, "GET", "/lists?limit=2&offset=0")
    check(page["limit"] == 2 and page["offset"] == 0 and page["total"] == 5 and len(page["items"]) == 2,
          f"first page of lists: {page!r}")
    check(page["items"][0]["id"] == gid and page["items"][0]["itemCount"] == 3, f"counts: {page!r}")
    check(page["items"][1]["itemCount"] == 1, f"counts: {page!r}")
    last = c.expect(200, "GET", "/lists?limit=2&offset=4")
    check(len(last["items"]) == 1 and last["items"][0]["itemCount"] == 0, f"last page: {last!r}")
    c.expect(400, "GET", "/lists?limit=0")
    c.expect(400, "GET", "/lists?limit=abc")
    c.expect(400, "GET", "/lists?offset=-1")
    one = c.expect(200, "GET", f"/lists/{gid}")
    check(one["itemCount"] == 3, f"one list: {one!r}")
    c.expect(404, "GET", "/lists/999999")
    c.expect(404, "GET", "/lists/not-a-number")
    c.expect(404, "GET", "/no/such/route")

    # Items: filtering and pagination.
    items = c.expect(200, "GET", f"/lists/{gid}/items")
    check([i["title"] for i in items["items"]] == ["Milk", "Eggs", "Oat milk"] and items["total"] == 3,
          f"items: {items!r}")
    done = c.expect(200, "GET", f"/lists/{gid}/items?done=true")
    check([i["id"] for i in done["items"]] == [eggs["id"]] and done["total"] == 1, f"done items: {done!r}")
    open_ = c.expect(200, "GET", f"/lists/{gid}/items?done=false&q=milk")
    check([i["id"] for i in open_["items"]] == [oat["id"]], f"open items with 'milk': {open_!r}")
    second = c.expect(200, "GET", f"/lists/{gid}/items?limit=1&offset=1")
    check([i["id"] for i in second["items"]] == [eggs["id"]] and second["total"] == 3, f"page 2: {second!r}")
    c.expect(400, "GET", f"/lists/{gid}/items?done=maybe")
    c.expect(404, "GET", "/lists/999999/items")

    # One item: read, change, delete.
    got = c.expect(200, "GET", f"/lists/{gid}/items/{milk['id']}")
    check(got == milk, f"item: {got!r}")
    c.expect(404, "GET", f"/lists/{chores['id']}/items/{milk['id']}")             # another list's item
    changed = c.expect(200, "PATCH", f"/lists/{gid}/items/{milk['id']}", {"done": True})
    check(changed["done"] is True and changed["title"] == "Milk", f"patched: {changed!r}")
    renamed = c.expect(200, "PATCH", f"/lists/{gid}/items/{milk['id']}", {"title": "Whole milk", "done": False})
    check(renamed["done"] is False and renamed["title"] == "Whole milk", f"patched: {renamed!r}")
    c.expect(422, "PATCH", f"/lists/{gid}/items/{milk['id']}", {"title": " "})
    c.expect(404, "PATCH", f"/lists/{gid}/items/999999", {"done": True})
    c.expect(204, "DELETE", f"/lists/{gid}/items/{oat['id']}")
    c.expect(404, "DELETE", f"/lists/{gid}/items/{oat['id']}")

    # Lists: rename, duplicate rename, delete (the items go with it).
    c.expect(200, "PATCH", f"/lists/{chores['id']}", {"title": "Housework"})
    c.expect(409, "PATCH", f"/lists/{chores['id']}", {"title": "Groceries"})
    c.expect(404, "PATCH", "/lists/999999", {"title": "Nothing"})
    c.expect(204, "DELETE", f"/lists/{chores['id']}")
    c.expect(404, "GET", f"/lists/{chores['id']}")
    c.expect(404, "GET", f"/lists/{chores['id']}/items")
    c.expect(404, "DELETE", f"/lists/{chores['id']}")

    sse(c, base, gid)
    if server_log:
        correlation(server_log)
    print(f"todo-server-driver: api on {engine}: every endpoint, bad inputs and SSE as expected")


def sse(c, base, list_id):
    """One client streams the list's events; another request changes the list; the stream must
    deliver a snapshot with the change within 10 seconds."""
    parsed = urllib.parse.urlparse(base)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
    connection.request("GET", f"/lists/{list_id}/events", headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    check(response.status == 200, f"events: status {response.status}")
    check(response.getheader("Content-Type", "").startswith("text/event-stream"),
          f"events: content type {response.getheader('Content-Type')}")
    snapshots = []
    errors = []

    def read():
        try:
            event = None
            while True:
                line = response.fp.readline()
                if not line:
                    return
                line = line.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "snapshot":
                    snapshots.append(json.loads(line[6:]))
        except Exception as error:  # the connection closes at the end of the test
            errors.append(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.time() + 10
    while not snapshots and time.time() < deadline:
        time.sleep(0.02)
    check(snapshots, "events: no first snapshot")
    first = snapshots[0]
    check(first["list"]["id"] == list_id, f"events: first snapshot of another list: {first!r}")
    added = c.expect(201, "POST", f"/lists/{list_id}/items", {"title": "Added while watching"})
    while time.time() < deadline and not any(
            any(i["id"] == added["id"] for i in s["items"]) for s in snapshots[1:]):
        time.sleep(0.02)
    check(any(any(i["id"] == added["id"] for i in s["items"]) for s in snapshots[1:]),
          f"events: the stream did not show the item another request added ({len(snapshots)} snapshots)")
    connection.close()


def correlation(server_log):
    """The server's log (LOG_LEVEL=debug, TRACE=1): the database's statement lines carry the
    request id of the request that ran them, and the database's spans are in the trace of a
    request's span, below it."""
    deadline = time.time() + 5
    spans = []
    while time.time() < deadline:
        spans = []
        statements = []
        requests = {}
        with open(server_log, errors="replace") as log:
            for line in log:
                if " span " in line and "trace_id=" in line:
                    spans.append(parse_metadata(line) | {"_line": line})
                elif "Statement ran" in line:
                    statements.append(parse_metadata(line))
                elif "component=database" not in line and "hb.request.id=" in line:
                    fields = parse_metadata(line)
                    requests[fields.get("hb.request.id")] = fields
        db_spans = [s for s in spans if s.get("attr.db.system.name") in ("sqlite", "postgresql")]
        request_spans = [s for s in spans if s.get("span.kind") == "server"]
        if db_spans and request_spans:
            break
        time.sleep(0.2)
    check(statements, "correlation: no 'Statement ran' line in the server log (LOG_LEVEL=debug?)")
    tagged = [s for s in statements if s.get("hb.request.id") in requests]
    check(tagged, "correlation: no database statement line carries the id of a request the server logged")
    check(db_spans, "correlation: no database span in the server log (TRACE=1?)")
    by_id = {s["span_id"]: s for s in spans}
    linked = 0
    for span in db_spans:
        ancestor, hops = span, 0
        while ancestor.get("parent_span_id") and hops < 6:
            ancestor = by_id.get(ancestor["parent_span_id"], {})
            hops += 1
        if ancestor.get("span.kind") == "server" and ancestor.get("trace_id") == span.get("trace_id"):
            linked += 1
    check(linked > 0, "correlation: no database span is below a request's span in its trace")
    print(f"todo-server-driver: correlation: {len(tagged)} statement lines carry their request's id; "
          f"{linked} of {len(db_spans)} database spans are below a request span")


def parse_metadata(line):
    fields = {}
    for part in line.split():
        if "=" in part:
            key, value = part.split("=", 1)
            fields[key] = value.strip('"')
    return fields


def load(base, pid, state_file):
    """Writes items from 8 threads; SIGTERM after 1.5 seconds; each thread stops at its first
    refused request. Saves the acknowledged ids (201s)."""
    c = Client(base)
    target = c.expect(201, "POST", "/lists", {"title": f"Load {time.time()}"})
    acked, refused, statuses = [], [], {}
    lock = threading.Lock()
    stop = threading.Event()

    def writer(worker):
        count = 0
        while not stop.is_set():
            count += 1
            try:
                status, payload = c.request("POST", f"/lists/{target['id']}/items",
                                            {"title": f"w{worker}-{count}"}, timeout=20)
            except (ConnectionError, OSError, http.client.HTTPException) as error:
                with lock:
                    refused.append(type(error).__name__)
                return
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
            if status == 201:
                with lock:
                    acked.append(payload["id"])
            elif status == 503:
                return  # shutting down: this write was not acknowledged
            else:
                fail(f"load: a write answered {status}: {payload!r}")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    before = len(acked)
    os.kill(pid, signal.SIGTERM)
    deadline = time.time() + 30
    for thread in threads:
        thread.join(max(0.1, deadline - time.time()))
    stop.set()
    check(before > 20, f"load: only {before} writes acknowledged before the shutdown")
    with open(state_file, "w") as state:
        json.dump({"list": target["id"], "acked": acked}, state)
    print(f"todo-server-driver: load: {len(acked)} writes acknowledged ({before} before SIGTERM), "
          f"statuses {statuses}, {len(refused)} refused connections after it")


def verify(base, state_file):
    with open(state_file) as state:
        saved = json.load(state)
    c = Client(base)
    found, offset = set(), 0
    while True:
        page = c.expect(200, "GET", f"/lists/{saved['list']}/items?limit=100&offset={offset}")
        found.update(i["id"] for i in page["items"])
        offset += 100
        if offset >= page["total"]:
            break
    missing = [i for i in saved["acked"] if i not in found]
    check(not missing, f"verify: {len(missing)} acknowledged writes are missing after the restart: {missing[:10]}")
    print(f"todo-server-driver: verify: all {len(saved['acked'])} acknowledged writes are there "
          f"({len(found)} items in the list)")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "api":
        api(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif command == "load":
        load(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif command == "verify":
        verify(sys.argv[2], sys.argv[3])
    else:
        fail(__doc__)
