#!/usr/bin/env python3
"""Helpers of Benchmarks/todo-load.sh: seeds a TodoServer (either implementation) and sends a fixed
sequence of the wrk mix's requests (for counting instructions per request under callgrind).

    todo-load-client.py seed BASE_URL         10 lists of 50 items each
    todo-load-client.py run  BASE_URL COUNT   COUNT requests of the mix, one at a time
"""
import http.client
import json
import random
import sys
import urllib.parse


def connect(base):
    parsed = urllib.parse.urlparse(base)
    return http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)


def send(connection, method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if response.status not in (200, 201):
        sys.exit(f"{method} {path}: {response.status} {data[:200]!r}")
    return json.loads(data) if data else None


def seed(base):
    connection = connect(base)
    for index in range(1, 11):
        made = send(connection, "POST", "/lists", {"title": f"List {index}"})
        assert made["id"] == index, made
        for item in range(50):
            send(connection, "POST", f"/lists/{index}/items", {"title": f"Item {item}", "done": item % 3 == 0})


def run(base, count):
    random.seed(42)
    connection = connect(base)
    for number in range(count):
        pick = random.randint(1, 100)
        lst = random.randint(1, 10)
        if pick <= 50:
            send(connection, "GET", f"/lists/{lst}/items?limit=20&offset={random.randint(0, 30)}")
        elif pick <= 75:
            send(connection, "GET", "/lists?limit=10")
        elif pick <= 90:
            send(connection, "GET", f"/lists/{lst}")
        else:
            send(connection, "POST", f"/lists/{lst}/items", {"title": f"counted {number}", "done": False})


if __name__ == "__main__":
    if sys.argv[1] == "seed":
        seed(sys.argv[2])
    elif sys.argv[1] == "run":
        run(sys.argv[2], int(sys.argv[3]))
