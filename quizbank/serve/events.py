"""The change events of a preview: each change handed to every open event stream."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterable


class EventBroker:
    """Hands each change to every connected event stream."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: list[queue.Queue[str | None]] = []

    @property
    def clients(self) -> int:
        """How many event streams are open."""
        with self._lock:
            return len(self._clients)

    def connect(self) -> queue.Queue[str | None]:
        client: queue.Queue[str | None] = queue.Queue()
        with self._lock:
            self._clients.append(client)
        return client

    def disconnect(self, client: queue.Queue[str | None]) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)

    def publish(self, quiz_ids: Iterable[str]) -> None:
        data = json.dumps({"quizzes": sorted(quiz_ids)})
        with self._lock:
            for client in self._clients:
                client.put(data)

    def close(self) -> None:
        with self._lock:
            for client in self._clients:
                client.put(None)
            self._clients.clear()
