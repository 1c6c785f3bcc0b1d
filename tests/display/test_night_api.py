"""The night's API: an unfinished game resumed by a tablet, refusals that change nothing, and what the
night page reads (each game's options and player counts, the night's points per place)."""
from __future__ import annotations

from fastapi.testclient import TestClient

from companion.night import POINTS_PER_PLACE, Night


def test_a_tablet_resumes_the_game_left_unfinished(tablet: TestClient, watcher: TestClient, night: Night) -> None:
    first = night.current
    assert first is not None
    first.propose({"type": "cast", "targets": {"Lera": "r0t3", "Kirill": None, "Katya": None, "Rosa": None}})
    assert tablet.post("/api/night/games", json={"game": "counting", "players": ["Ann", "Bo"]}).status_code == 200
    first_id = night.played()[0][0]
    games = watcher.get("/api/night").json()["games"]
    assert [g["current"] for g in games] == [False, True] and games[0]["version"] == first.version
    answer = tablet.post(f"/api/night/games/{first_id}/resume")
    assert answer.status_code == 200, answer.text
    assert answer.json()["id"] == first_id and night.current is first
    assert watcher.get("/api/game").json()["players"][0]["name"] == "Lera"


def test_resuming_what_cannot_be_resumed_is_refused_and_changes_nothing(tablet: TestClient, watcher: TestClient,
                                                                        night: Night) -> None:
    current = night.current
    refused = tablet.post("/api/night/games/77/resume")
    assert refused.status_code == 400 and refused.json()["kind"] == "CannotResume" and "77" in refused.json()["error"]
    assert night.current is current
    assert watcher.post(f"/api/night/games/{night.played()[0][0]}/resume").status_code == 401  # no session


def test_the_night_page_reads_options_counts_and_points_per_place(watcher: TestClient) -> None:
    known = {g["name"]: g for g in watcher.get("/api/games").json()["games"]}
    assert known["grimoire"]["player_counts"] == [1, 2, 3, 4]
    difficulty = next(o for o in known["grimoire"]["options"] if o["key"] == "difficulty")
    assert difficulty["default"] == "normal" and [c["value"] for c in difficulty["choices"]] == ["leicht", "normal", "schwer"]
    assert {o["key"] for o in known["incantibus"]["options"]} == {"expert", "draws", "deal"}
    assert watcher.get("/api/night").json()["points_per_place"] == list(POINTS_PER_PLACE)
