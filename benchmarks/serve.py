"""How long a saved file takes to reach the browser in `quizbank serve`, on the benchmark bank.

    python benchmarks/serve.py [--quizzes 500] [--questions 20] [--edits 9]

A synthetic bank (benchmarks/generate.py; by default 500 quizzes of 20 questions in English and
Urdu, 20,000 questions) is written to a temporary folder and `python -m quizbank serve BANK` is
started on it as a subprocess. A client listens to its event stream (`/events`) as a page does;
then one English file is edited (its title changes, as generate.py's edit_one_file does), again
and again, and each time the clock runs from just before the write to the arrival of the event
that names the quiz: the watcher's notice, the check and render of that one quiz, and the event.
The median is printed, against the target of 0.2 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from generate import edit_one_file, generate_bank, quiz_id

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def listen(port: int, events: queue.Queue[tuple[float, list[str]]], ready: threading.Event) -> None:
    """Read the event stream, putting each change's arrival time and quiz ids on `events`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/events")
    response = connection.getresponse()
    ready.set()
    while True:
        line = response.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            events.put((time.perf_counter(), json.loads(line[6:])["quizzes"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quizzes", type=int, default=500)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--edits", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bank = Path(folder) / "content"
        generate_bank(bank, args.quizzes, args.questions)
        port = free_port()
        started = time.perf_counter()
        server = subprocess.Popen(
            [sys.executable, "-m", "quizbank", "serve", str(bank), "--port", str(port)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            first = server.stdout.readline()
            if not first.startswith("serving"):
                raise SystemExit(f"serve did not start: {first!r}")
            ready_seconds = time.perf_counter() - started
            events: queue.Queue[tuple[float, list[str]]] = queue.Queue()
            ready = threading.Event()
            threading.Thread(target=listen, args=(port, events, ready), daemon=True).start()
            ready.wait(10)
            time.sleep(0.5)  # the watcher is running once the server has printed its line
            index = args.quizzes // 2
            times = []
            for round_ in range(args.edits):
                written = time.perf_counter()
                edit_one_file(bank, index, round_)
                while True:
                    arrived, quizzes = events.get(timeout=10)
                    if quiz_id(index) in quizzes:
                        break
                times.append(arrived - written)
                time.sleep(0.6)  # edits apart, as saves are
        finally:
            server.terminate()
            server.wait(10)
    questions = args.quizzes * args.questions * 2
    print(
        f"bank: {args.quizzes} quizzes x {args.questions} questions x 2 languages "
        f"= {questions} questions; serve ready in {ready_seconds:.1f} s"
    )
    print("save to event, each edit (s): " + " ".join(f"{t:.3f}" for t in times))
    median = statistics.median(times)
    verdict = "within" if median <= TARGET else "OVER"
    print(f"save to browser event, median of {len(times)}: {median:.3f} s ({verdict} {TARGET} s)")


if __name__ == "__main__":
    main()
