"""The tablet's cue button and the table's notices through TestClient: the route is there only with a
table side, a cue needs a session, and what the table side says reaches every page's stream."""
from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def next_of(stream: Any, kind: str) -> dict[str, Any]:
    """The next pushed message of ``kind``, past the devices' status reports."""
    for _ in range(50):
        message = stream.receive_json()
        if message["type"] == kind:
            return message  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind!r} message in 50")


def test_a_display_without_a_table_side_has_no_cue_button(tablet: TestClient) -> None:
    assert tablet.get("/api/session").json() == {"joined": True, "cue": False}
    refused = tablet.post("/api/cue", json={"action_id": "tap-1"})
    assert refused.status_code == 404 and "/api/cue" in refused.json()["error"]


def test_the_cue_needs_a_session(tableside: Any, watcher: TestClient) -> None:
    assert watcher.get("/api/session").json() == {"joined": False, "cue": True}
    refused = watcher.post("/api/cue", json={"action_id": "tap-1"})
    assert refused.status_code == 401 and "/join" in refused.json()["error"]
    assert tableside.notices.recent("reading") == []


def test_a_tapped_cue_is_read_and_its_reading_pushed_to_every_page(tableside: Any, watcher: TestClient,
                                                                   tablet: TestClient) -> None:
    with watcher.websocket_connect("/api/stream") as stream:
        stream.receive_json()
        answer = tablet.post("/api/cue", json={"action_id": "tap-2"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["source"] == "tablet" and answer.json()["t_end"] > 0
        notice = next_of(stream, "notice")["notice"]
    assert notice["kind"] == "reading" and "cue heard" in notice["message"] and "tablet" in notice["message"]
    assert notice == tableside.notices.recent("reading")[-1]


def test_a_swap_the_table_forgot_is_pushed_as_said(tableside: Any, watcher: TestClient) -> None:
    with watcher.websocket_connect("/api/stream") as stream:
        stream.receive_json()
        said = tableside.notices.say("swap", "wand 4 is still at Lera's seat: Lera and Katya should swap", wands=[4])
        pushed = next_of(stream, "notice")
    assert pushed["notice"] == said and pushed["notice"]["wands"] == [4]


def test_a_retried_cue_tap_is_heard_once(tableside: Any, tablet: TestClient, monkeypatch: Any) -> None:
    given = []
    tap = tableside.cue.tablet
    monkeypatch.setattr(tableside.cue, "tablet", lambda: given.append(tap()) or given[-1])
    first = tablet.post("/api/cue", json={"action_id": "tap-9"})
    again = tablet.post("/api/cue", json={"action_id": "tap-9"})
    other = tablet.post("/api/cue", json={"action_id": "tap-10"})
    assert first.status_code == again.status_code == other.status_code == 200
    assert again.json() == first.json() and other.json() != first.json()
    assert len(given) == 2


def test_a_cue_tap_with_a_bad_action_id_is_refused_by_name(tableside: Any, tablet: TestClient) -> None:
    refused = tablet.post("/api/cue", json={"action_id": "no spaces allowed"})
    assert refused.status_code == 422 and "action_id" in refused.text
