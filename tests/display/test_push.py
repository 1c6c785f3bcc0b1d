"""The push stream through TestClient, and the hub's promise that no tablet holds back another."""
from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from companion.night import Night
from companion.status import StatusBoard
from companion.web.push import FELL_BEHIND, Hub

from .conftest import load_here


def nobody(view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "cast", "targets": {p: None for p in view["wands"]}}


def test_a_page_gets_a_snapshot_then_numbered_events(watcher: TestClient, tablet: TestClient) -> None:
    with watcher.websocket_connect("/api/stream") as one, watcher.websocket_connect("/api/stream") as two:
        first = [one.receive_json(), two.receive_json()]
        assert [m["type"] for m in first] == ["snapshot", "snapshot"]
        assert first[0]["game"]["version"] == 0 and first[0]["history"][0]["kind"] == "setup"
        view = first[0]["game"]
        tablet.post("/api/game/actions", json={"action": nobody(view), "action_id": "a1"})
        for stream, snapshot in zip((one, two), first):
            event = stream.receive_json()
            assert event["type"] == "event" and event["seq"] == snapshot["seq"] + 1
            assert event["event"]["seq"] == 1 and event["game"]["version"] == 1
            assert event["in_effect"] == [1]
        tablet.post("/api/game/actions", json={"action": {"type": "undo"}})
        for stream in (one, two):
            undo = stream.receive_json()
            assert undo["event"]["kind"] == "undo" and undo["in_effect"] == []
            assert undo["game"]["last_cast"] is None  # the view went back with it


def test_refused_and_unauthorised_taps_push_nothing(watcher: TestClient, tablet: TestClient, status: StatusBoard) -> None:
    with watcher.websocket_connect("/api/stream") as stream:
        snapshot = stream.receive_json()
        watcher.post("/api/game/actions", json={"action": nobody(snapshot["game"])})  # no session
        tablet.post("/api/game/actions", json={"action": {"type": "cast", "targets": {}}})  # illegal
        status.report("camera", "ok", "camera sees the table")  # a marker: the next message pushed
        marker = stream.receive_json()
        assert marker["type"] == "status" and marker["seq"] == snapshot["seq"] + 1
        assert marker["status"][0]["device"] == "camera"


def test_a_page_that_asks_for_a_resync_gets_a_fresh_snapshot(watcher: TestClient, tablet: TestClient) -> None:
    with watcher.websocket_connect("/api/stream") as stream:
        view = stream.receive_json()["game"]
        tablet.post("/api/game/actions", json={"action": nobody(view)})
        event = stream.receive_json()
        stream.send_text("not json")  # ignored, the stream stays up
        stream.send_json({"type": "resync"})
        snapshot = stream.receive_json()
        assert snapshot["type"] == "snapshot" and snapshot["seq"] == event["seq"]
        assert snapshot["game"]["version"] == 1 and len(snapshot["history"]) == 2


def test_device_status_and_camera_questions_are_pushed(app: FastAPI, watcher: TestClient, status: StatusBoard) -> None:
    with watcher.websocket_connect("/api/stream") as stream:
        stream.receive_json()
        status.report("hub", "error", "wand hub unplugged", fix="plug the hub's USB cable back in")
        pushed = stream.receive_json()
        assert pushed["status"] == [{**pushed["status"][0], "device": "hub", "level": "error",
                                     "fix": "plug the hub's USB cable back in"}]
        wands = app.state.table.view()["wands"]
        app.state.table.ask(load_here("asking").question(app.state.table.view(), {4: ["r0t0"]}))
        asked = stream.receive_json()
        assert asked["type"] == "questions"
        holder = next(p for p, w in wands.items() if w == 4)
        assert list(asked["questions"][0]["unsure"]) == [holder]


def test_events_proposed_from_other_threads_arrive_in_order(app: FastAPI, watcher: TestClient, night: Night) -> None:
    with watcher.websocket_connect("/api/stream") as stream:
        start = stream.receive_json()["seq"]
        game = night.current
        assert game is not None

        def play(n: int) -> None:
            for i in range(n):
                game.propose(nobody(game.view()), action_id=f"{threading.get_ident()}-{i}")

        threads = [threading.Thread(target=play, args=(5,)) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        messages = [stream.receive_json() for _ in range(15)]
        assert [m["seq"] for m in messages] == list(range(start + 1, start + 16))
        assert [m["game"]["version"] for m in messages] == list(range(1, 16))


def test_starting_a_game_sends_every_page_a_snapshot(watcher: TestClient, tablet: TestClient) -> None:
    with watcher.websocket_connect("/api/stream") as stream:
        stream.receive_json()
        tablet.post("/api/night/games", json={"game": "counting", "players": ["Ann", "Bo"]})
        snapshot = stream.receive_json()
        assert snapshot["type"] == "snapshot" and list(snapshot["game"]["wands"]) == ["Ann", "Bo"]
        assert len(snapshot["night"]["games"]) == 2


# -- the hub on its own: peers that behave like sockets ---------------------------------------

class Tablet:
    """A peer that reads everything it is sent, as a healthy page does."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    async def send(self, text: str) -> None:
        self.received.append(json.loads(text))

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


class SleepingTablet(Tablet):
    """A peer whose socket stopped taking bytes: every send waits forever, like a full TCP window."""

    async def send(self, text: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)
        await asyncio.Event().wait()  # not even the close frame gets through


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_sleeping_tablet_is_dropped_and_holds_nobody_back() -> None:
    async def scenario() -> tuple[list[Tablet], SleepingTablet, Hub]:
        hub = Hub(lambda: {"game": None}, queue_size=8, send_timeout_s=0.05)
        hub.start(asyncio.get_running_loop())
        awake = [Tablet() for _ in range(3)]
        asleep = SleepingTablet()
        for peer in [awake[0], asleep, *awake[1:]]:
            hub.connect(peer)
        for n in range(50):
            hub.publish({"type": "event", "n": n})
            await asyncio.sleep(0.002)  # castings come seconds apart; this is already a flood
        await asyncio.sleep(0.2)
        return awake, asleep, hub

    awake, asleep, hub = run(scenario())
    for peer in awake:
        assert [m["type"] for m in peer.received[:2]] == ["snapshot", "event"]
        assert [m["n"] for m in peer.received[1:]] == list(range(50))
        assert peer.closed is None
    assert asleep.closed is not None and asleep.closed[0] == FELL_BEHIND
    assert hub.dropped == 1 and len(hub.clients) == 3


def test_a_tablet_too_far_behind_is_dropped_when_its_queue_fills() -> None:
    async def scenario() -> tuple[Tablet, Hub]:
        hub = Hub(lambda: {}, queue_size=4, send_timeout_s=10.0)
        hub.start(asyncio.get_running_loop())
        slow = SleepingTablet()
        hub.connect(slow)
        for n in range(6):  # published faster than it could ever send
            hub._broadcast({"type": "event", "n": n})
        await asyncio.sleep(0)
        return slow, hub

    slow, hub = run(scenario())
    assert slow.closed is not None and "fell behind" in slow.closed[1]
    assert hub.clients == set()


def test_publish_without_a_running_server_is_harmless() -> None:
    hub = Hub(lambda: {})
    hub.publish({"type": "event"})
    assert hub.seq == 0
