"""The display's HTTP API through TestClient: watching is open, changing needs a session."""
from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from companion.night import Night
from companion.status import StatusBoard
from companion.web.app import create_app
from companion.web.settings import Settings

from .conftest import load_here

asking = load_here("asking")


def cast(targets: dict[str, str | None]) -> dict[str, Any]:
    return {"type": "cast", "targets": targets}


def everyone_at(token: str | None) -> dict[str, Any]:
    return cast({p: token for p in ("Lera", "Kirill", "Katya", "Rosa")})


def test_anyone_may_watch(watcher: TestClient) -> None:
    view = watcher.get("/api/game").json()
    assert view["game"] == "counting" and view["version"] == 0
    assert [p["name"] for p in view["players"]] == ["Lera", "Kirill", "Katya", "Rosa"]
    assert watcher.get("/api/game/history").json()[0]["kind"] == "setup"
    assert watcher.get("/api/night").json()["games"][0]["current"] is True
    assert watcher.get("/api/status").json()["devices"] == []
    known = {g["name"]: g["title"] for g in watcher.get("/api/games").json()["games"]}
    assert known["via_magica"] == "Via Magica" and known["counting"] == "Counting" and len(known) == 6
    for page in ("/", "/controls", "/night", "/status", "/join"):
        assert "<html" in watcher.get(page).text


@pytest.mark.parametrize("request_args", [
    ("post", "/api/game/actions", {"action": {"type": "cast", "targets": {}}}),
    ("post", "/api/game/actions", {"action": {"type": "undo"}}),
    ("post", "/api/night/games", {"game": "counting", "players": ["A", "B"]}),
    ("post", "/api/game/questions/q1", {"targets": {"Lera": None}}),
])
def test_no_session_changes_nothing(watcher: TestClient, night: Night, request_args: tuple[str, str, Any]) -> None:
    method, path, body = request_args
    before = (night.current.version, len(night.played()))  # type: ignore[union-attr]
    for headers in ({}, {"X-Incanto-Session": "forged"}, {"Cookie": "incanto_session=forged"}):
        response = watcher.request(method, path, json=body, headers=headers)
        assert response.status_code == 401
        assert "join code" in response.json()["error"]
    assert (night.current.version, len(night.played())) == before  # type: ignore[union-attr]


def test_wrong_join_code_is_refused_and_joining_is_rate_limited(night: Night, status: StatusBoard,
                                                                settings: Settings) -> None:
    app = create_app(night, status, settings.model_copy(update={"joins_per_minute": 3}))
    with TestClient(app) as client:
        answers = [client.post("/api/session", json={"code": "000000"}) for _ in range(4)]
        assert [a.status_code for a in answers] == [403, 403, 403, 429]
        assert "'000000'" in answers[0].json()["error"]
        assert client.get("/api/session").json() == {"joined": False, "cue": False}


def test_a_joined_tablet_plays_and_a_retried_tap_applies_once(tablet: TestClient, night: Night) -> None:
    body = {"action": everyone_at("r0t1"), "action_id": "tap-1", "base": 0}
    first = tablet.post("/api/game/actions", json=body)
    assert first.status_code == 200, first.text
    assert first.json()["event"]["seq"] == 1
    retry = tablet.post("/api/game/actions", json=body)  # the tablet never saw the answer and tries again
    assert retry.json()["event"] == first.json()["event"]
    assert night.current.version == 1  # type: ignore[union-attr]
    view = tablet.get("/api/game").json()
    assert view["last_cast"]["got"] == {next(p for p, w in view["wands"].items() if w == 1): "r0t1"}


def test_stale_tap_is_refused_and_names_the_versions(tablet: TestClient, night: Night) -> None:
    tablet.post("/api/game/actions", json={"action": everyone_at(None), "base": 0})
    stale = tablet.post("/api/game/actions", json={"action": everyone_at("r0t0"), "base": 0})
    assert stale.status_code == 409
    assert stale.json()["stale"] is True and stale.json()["version"] == 1
    assert "version 0" in stale.json()["error"]
    assert night.current.version == 1  # type: ignore[union-attr]


def test_illegal_action_names_player_target_and_rule(tablet: TestClient, night: Night) -> None:
    action = cast({"Lera": "nowhere", "Kirill": None, "Katya": None, "Rosa": "r0t0"})
    refused = tablet.post("/api/game/actions", json={"action": action})
    assert refused.status_code == 422
    assert refused.json()["problems"] == [
        {"rule": "cast-target", "message": "no such token in the room", "player": "Lera", "target": "nowhere"}]
    assert night.current.version == 0  # type: ignore[union-attr]


def test_undo_redo_and_undo_to_here(tablet: TestClient) -> None:
    for n in range(3):
        tablet.post("/api/game/actions", json={"action": everyone_at(None), "action_id": f"t{n}"})
    post = lambda a: tablet.post("/api/game/actions", json={"action": a})  # noqa: E731
    assert post({"type": "undo"}).json()["event"]["payload"] == {"to": 2}
    assert post({"type": "redo"}).json()["event"]["kind"] == "redo"
    assert post({"type": "undo_to", "seq": 1}).json()["event"]["payload"] == {"to": 1}
    history = tablet.get("/api/game/history").json()
    assert [e["in_effect"] for e in history if e["kind"] == "action"] == [True, False, False]
    assert post({"type": "undo_to", "seq": 1}).status_code == 409  # nothing left to undo after entry 1


@pytest.mark.parametrize("body, answer_status, names", [
    ({"action": {"targets": {}}}, 400, "'type'"),
    ({"action": "cast"}, 422, "body.action"),
    ({"action": {"type": "cast"}, "base": -1}, 422, "body.base"),
    ({"action": {"type": "cast"}, "action_id": "bad id!"}, 422, "body.action_id"),
    ({"action": {"type": "cast"}, "extra": 1}, 422, "body.extra"),
    ({"action": {"type": "undo_to", "seq": "two"}}, 400, "'two'"),
    ({}, 422, "body.action"),
])
def test_malformed_requests_get_a_4xx_naming_the_problem(tablet: TestClient, night: Night, body: Any,
                                                         answer_status: int, names: str) -> None:
    response = tablet.post("/api/game/actions", json=body)
    assert response.status_code == answer_status, response.text
    assert names in response.json()["error"]
    assert night.current.version == 0  # type: ignore[union-attr]


def test_not_json_and_oversized_bodies_are_refused(tablet: TestClient, settings: Settings) -> None:
    garbled = tablet.post("/api/game/actions", content=b"{not json", headers={"Content-Type": "application/json"})
    assert garbled.status_code == 422 and "JSON" in garbled.json()["error"]
    big = {"action": {"type": "cast", "pad": "x" * settings.max_body_bytes}}
    assert tablet.post("/api/game/actions", json=big).status_code == 413
    deep = b'{"action": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    too_deep = tablet.post("/api/game/actions", content=deep, headers={"Content-Type": "application/json"})
    assert too_deep.status_code == 400 and "recursion" in too_deep.json()["error"]
    not_utf8 = tablet.post("/api/game/actions", content=b"\xff\xfe{", headers={"Content-Type": "application/json"})
    assert not_utf8.status_code == 400 and "UnicodeDecodeError" in not_utf8.json()["error"]
    assert "'/api/nothing'" in tablet.get("/api/nothing").json()["error"]
    chunked = tablet.post("/api/game/actions", content=iter([b"{" + b" " * settings.max_body_bytes, b"}"]),
                          headers={"Content-Type": "application/json"})
    assert chunked.status_code == 413
    assert "bytes" in chunked.json()["error"]


def test_bad_input_never_gets_a_5xx(tablet: TestClient) -> None:
    bodies: list[Any] = [None, [], 3, "x", {"action": None}, {"action": {"type": None}}, {"action": {"type": "x" * 500}},
                         {"action": {"type": "cast", "targets": None}}, {"action": {"type": "cast", "targets": [1]}},
                         {"action": {"type": "cast", "targets": {"Lera": {"deep": [1]}}}},
                         {"action": {"type": "setup"}}, {"action": {"type": "undo_to", "seq": True}}]
    for body in bodies:
        for path in ("/api/game/actions", "/api/game/questions/q9", "/api/night/games", "/api/session"):
            response = tablet.post(path, json=body)
            assert 400 <= response.status_code < 500, (path, body, response.text)
            assert response.json()["error"]


def test_actions_are_rate_limited_per_session(night: Night, status: StatusBoard, settings: Settings) -> None:
    app = create_app(night, status, settings.model_copy(update={"actions_per_minute": 2}))
    with TestClient(app) as client:
        client.post("/api/session", json={"code": settings.join_code})
        answers = [client.post("/api/game/actions", json={"action": everyone_at(None)}) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert "at most 2 a minute" in answers[2].json()["error"]
        assert night.current.version == 2  # type: ignore[union-attr]


def test_join_code_shown_only_on_the_display_and_joined_tablets(watcher: TestClient, tablet: TestClient,
                                                                settings: Settings) -> None:
    assert watcher.get("/api/session/code").status_code == 401
    shown = tablet.get("/api/session/code").json()
    code = settings.join_code
    assert shown["code"] == code and shown["url"].endswith(f"/join?code={code}")
    assert shown["qr_svg"].startswith("<svg")


def test_starting_the_next_game_from_the_night_page(tablet: TestClient, night: Night) -> None:
    refused = tablet.post("/api/night/games", json={"game": "chess", "players": ["A", "B"]})
    assert refused.status_code == 400 and "'chess'" in refused.json()["error"]
    too_few = tablet.post("/api/night/games", json={"game": "counting", "players": ["A"]})
    assert too_few.status_code == 400 and "not 1" in too_few.json()["error"]
    started = tablet.post("/api/night/games", json={"game": "counting", "players": [" Ann ", "Bo"]})
    assert started.json()["players"] == ["Ann", "Bo"]
    assert [g["current"] for g in tablet.get("/api/night").json()["games"]] == [False, True]


def test_unsure_wand_is_asked_and_the_answer_applies(app: FastAPI, tablet: TestClient, night: Night) -> None:
    table = app.state.table
    wands = table.view()["wands"]
    holder = {w: p for p, w in wands.items()}
    question = table.ask(asking.question(table.view(), {2: ["r0t1", "r0t2"]}, seen={1: "r0t0", 3: None, 4: None},
                                         why={2: "between"}))
    asked = tablet.get("/api/game/questions").json()[0]
    assert asked["unsure"] == {holder[2]: ["r0t1", "r0t2"]}
    assert asked["why"] == {holder[2]: "the tip is between two tokens"}  # only the wands asked, in words
    (wand,) = asked["wands"]
    assert [c["name"] for c in wand["choices"]] == ["token 1", "token 2", "no token"]
    assert (wand["player"], wand["wand"], wand["marked"], wand["picture"]) == (holder[2], 2, False, None)
    wrong = tablet.post(f"/api/game/questions/{question.id}", json={"targets": {holder[1]: "r0t3"}})
    assert wrong.status_code == 400 and holder[1] in wrong.json()["error"]
    tap = {"targets": {holder[2]: "r0t2"}, "action_id": "tap-q"}
    answered = tablet.post(f"/api/game/questions/{question.id}", json=tap)
    assert answered.status_code == 200, answered.text
    assert night.current.history()[-1]["payload"]["targets"] == {  # type: ignore[union-attr]
        holder[1]: "r0t0", holder[2]: "r0t2", holder[3]: None, holder[4]: None}
    assert tablet.get("/api/game/questions").json() == []
    retried = tablet.post(f"/api/game/questions/{question.id}", json=tap)
    assert retried.json()["event"] == answered.json()["event"] and night.current.version == 1  # type: ignore[union-attr]
    other_tap = tablet.post(f"/api/game/questions/{question.id}", json={"targets": {holder[2]: "r0t1"}})
    assert other_tap.status_code == 404 and "answered" in other_tap.json()["error"]


def test_each_tap_marks_one_wand_and_the_last_one_casts(app: FastAPI, tablet: TestClient, watcher: TestClient,
                                                       night: Night) -> None:
    """A two-wand question: the first tap is marked for every tablet and changes nothing in the game;
    a change of mind replaces the mark; the tap that answers the last wand casts, once."""
    table = app.state.table
    holder = {w: p for p, w in table.view()["wands"].items()}
    question = table.ask(asking.question(table.view(), {1: ["r0t0", "r0t1"], 3: ["r0t2", "r0t3"]}))
    first = tablet.post(f"/api/game/questions/{question.id}", json={"targets": {holder[1]: "r0t0"}})
    assert first.status_code == 200 and first.json()["complete"] is False
    seen = watcher.get("/api/game/questions").json()[0]
    assert seen["marks"] == {holder[1]: "r0t0"} and [w["marked"] for w in seen["wands"]] == [True, False]
    assert night.current.version == 0  # type: ignore[union-attr]
    tablet.post(f"/api/game/questions/{question.id}", json={"targets": {holder[1]: "r0t1"}})  # a change of mind
    assert watcher.get("/api/game/questions").json()[0]["marks"] == {holder[1]: "r0t1"}
    last = tablet.post(f"/api/game/questions/{question.id}", json={"targets": {holder[3]: None}})
    assert last.status_code == 200 and last.json()["complete"] is True, last.text
    casts = [e for e in night.current.history() if e["kind"] == "action"]  # type: ignore[union-attr]
    assert [e["payload"]["targets"] for e in casts] == [{holder[1]: "r0t1", holder[2]: None, holder[3]: None,
                                                          holder[4]: None}]
    assert watcher.get("/api/game/questions").json() == []


def test_a_second_question_for_the_same_casting_joins_the_first(app: FastAPI, tablet: TestClient) -> None:
    table = app.state.table
    first = table.ask(asking.question(table.view(), {1: ["r0t0"]}))
    empty = tablet.post(f"/api/game/questions/{first.id}", json={"targets": {}})
    assert empty.status_code == 400 and "at least one wand" in empty.json()["error"]
    again = table.ask(asking.question(table.view(), {2: ["r0t1"]}))
    assert again.id == first.id and [q["id"] for q in tablet.get("/api/game/questions").json()] == [first.id]
    assert table.asking() is not None and table.asking().id == first.id


def test_the_wands_picture_is_served_and_unknown_ones_are_not(app: FastAPI, watcher: TestClient) -> None:
    import cv2
    import numpy as np

    table = app.state.table
    ok, png = cv2.imencode(".png", np.full((40, 40, 3), (30, 120, 200), np.uint8))
    question = table.ask(asking.question(table.view(), {2: ["r0t1", "r0t2"], 3: ["r0t0"]}, pictures={2: png.tobytes()}))
    asked = watcher.get("/api/game/questions").json()[0]
    assert [w["picture"] for w in asked["wands"]] == [f"/api/questions/{question.id}/wand/2.png", None]
    got = watcher.get(f"/api/questions/{question.id}/wand/2.png")
    assert got.status_code == 200 and got.headers["content-type"] == "image/png"
    picture = cv2.imdecode(np.frombuffer(got.content, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (40, 40, 3) and tuple(picture[0, 0]) == (30, 120, 200)
    for path, says in ((f"/api/questions/{question.id}/wand/3.png", "no picture of wand 3"),  # asked, no picture
                       (f"/api/questions/{question.id}/wand/4.png", "no picture of wand 4"),  # not asked
                       ("/api/questions/q99/wand/2.png", "'q99'")):
        missing = watcher.get(path)
        assert missing.status_code == 404 and says in missing.json()["error"], (path, missing.text)
    assert watcher.get(f"/api/questions/{question.id}/wand/two.png").status_code == 422


def test_a_new_game_withdraws_the_cameras_open_questions(app: FastAPI, tablet: TestClient) -> None:
    app.state.table.ask(asking.question(app.state.table.view(), {1: ["r0t0"]}))
    assert len(tablet.get("/api/game/questions").json()) == 1
    tablet.post("/api/night/games", json={"game": "counting", "players": ["Ann", "Bo"]})
    assert tablet.get("/api/game/questions").json() == []


def test_a_question_asking_nobody_or_a_player_twice_is_refused() -> None:
    from companion.question import AskedWand, CastQuestion, Choice

    wand = AskedWand("Lera", 1, (Choice("r0t0", "token 1"),))
    with pytest.raises(ValueError, match="at least one wand"):
        CastQuestion({"Lera": None}, (), 0)
    with pytest.raises(ValueError, match="'Lera'"):
        CastQuestion({"Lera": None}, (wand,), 0)


@pytest.mark.parametrize("game_name", ["incantibus"])
def test_random_garbage_actions_never_get_a_5xx(night: Night, status: StatusBoard, settings: Settings,
                                                game_name: str) -> None:
    app = create_app(night, status, settings.model_copy(update={"actions_per_minute": 10_000}))
    rng = random.Random(0)
    values: list[Any] = [None, 1, -1, 1.5, "x", "r0", "p0", "s0", "J1", [], {}, ["r0"], {"Lera": "r0"}, True,
                         "discard_new", {"discard": 3}, {"token": None}]
    keys = ["targets", "player", "card", "choice", "kinds", "visible", "secret", "room", "seq", "token_id"]
    game = night.current
    assert game is not None
    with TestClient(app, raise_server_exceptions=False) as client:
        client.post("/api/session", json={"code": settings.join_code})
        for n in range(400):
            action = {"type": rng.choice(["cast", "spell", "satchel", "wand_down", "reveal", "room_entered", "x"])}
            action |= {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, 4))}
            version = game.version
            answer = client.post("/api/game/actions", json={"action": action})
            assert answer.status_code < 500, (action, answer.text)
            assert answer.status_code == 200 or game.version == version  # refused: nothing changed
            if n % 40 == 0 and (bot := game.rules.random_action(game.state, rng)):
                game.propose(bot)  # reach the game's other prompts too


def test_a_reason_the_tablet_does_not_know_is_left_unsaid(app: FastAPI, tablet: TestClient) -> None:
    table = app.state.table
    holder = {w: p for p, w in table.view()["wands"].items()}
    table.ask(asking.question(table.view(), {1: ["r0t0"], 2: ["r0t1"]}, why={1: "gremlins", 2: "hidden"}))
    asked = tablet.get("/api/game/questions").json()[0]
    assert set(asked["unsure"]) == {holder[1], holder[2]} and asked["why"] == {holder[2]: "the tip is hidden under a hand or another wand"}
    assert [w["why"] for w in asked["wands"]] == ["", "the tip is hidden under a hand or another wand"]


def test_the_tablet_has_words_for_every_reason_the_camera_gives() -> None:
    from companion.web.questions import WHY_WORDS
    from vision.decide import WHY

    assert set(WHY) <= set(WHY_WORDS)


def test_two_tablets_answering_the_last_wand_at_once_make_one_cast(app: FastAPI, night: Night) -> None:
    import threading

    from companion.web.errors import UnknownQuestion

    table = app.state.table
    holder = {w: p for p, w in table.view()["wands"].items()}
    question = table.ask(asking.question(table.view(), {1: ["r0t0", "r0t1"]}))
    start, outcomes = threading.Barrier(2), []

    def tap(place: str, action_id: str) -> None:
        start.wait()
        try:
            outcomes.append(type(table.answer(question.id, {holder[1]: place}, action_id)).__name__)
        except UnknownQuestion:
            outcomes.append("answered already")

    taps = [threading.Thread(target=tap, args=args) for args in (("r0t0", "tap-a"), ("r0t1", "tap-b"))]
    for t in taps:
        t.start()
    for t in taps:
        t.join(5)
    assert sorted(outcomes) == ["Event", "answered already"]
    assert [e["kind"] for e in night.current.history()].count("action") == 1  # type: ignore[union-attr]
