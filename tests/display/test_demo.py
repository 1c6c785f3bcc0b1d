"""The demo: bots play Incantibus through the table's door, and the camera's doubts reach the tablets."""
from __future__ import annotations

import random
import threading

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from companion.night import Night
from companion.night_at_the_table import demo


@pytest.fixture
def game_name() -> str:
    return "incantibus"


def test_bots_play_and_answer_the_cameras_question_when_nobody_taps(app: FastAPI, night: Night,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(demo, "TAP_WAIT_S", 0.2)
    bots = demo.Bots(app.state.table, 0.0, random.Random(5))
    while bots.castings < demo.UNSURE_EVERY:
        bots.step()
    history = night.current.history()  # type: ignore[union-attr]
    answered = [e for e in history if e["kind"] == "action" and (e.get("payload") or {}).get("type") == "cast"]
    assert len(answered) == demo.UNSURE_EVERY
    assert night.current.log.find("answer-q1") is not None  # type: ignore[union-attr]
    assert app.state.table.questions.open() == []


def test_a_tablet_answers_the_cameras_question(app: FastAPI, tablet: TestClient, night: Night) -> None:
    game = night.current
    assert game is not None
    bots = demo.Bots(app.state.table, 0.0, random.Random(2))
    rng = random.Random(2)
    while (action := game.rules.random_action(game.state, rng))["type"] != "cast":
        game.propose(action)
    asking = threading.Thread(target=bots.ask_the_table, args=(action, game.view()))
    asking.start()
    question = _wait_for_question(tablet)
    (player, (seen, runner_up)), = question["unsure"].items()
    answer = tablet.post(f"/api/game/questions/{question['id']}", json={"targets": {player: runner_up}})
    asking.join(timeout=5)
    assert answer.status_code == 200 and not asking.is_alive()
    assert game.history()[-1]["payload"]["targets"][player] == runner_up


def _wait_for_question(client: TestClient) -> dict:  # type: ignore[type-arg]
    for _ in range(200):
        if questions := client.get("/api/game/questions").json():
            return questions[0]  # type: ignore[no-any-return]
        threading.Event().wait(0.01)
    raise AssertionError("the camera's question never reached the tablets")


def test_demo_prints_the_address_and_join_code_and_stops(capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main(["--no-browser", "--seconds", "1.5", "--port", "0", "--host", "127.0.0.1", "--pace", "0.1",
                      "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "join code:" in out and "http://127.0.0.1:" in out


# -- every game, started from the tablet -------------------------------------------------------------

EVERY_GAME = {"incantibus": {"expert": True}, "grimoire": {"difficulty": "schwer"}, "ravenskeep": {},
              "via_magica": {"deal": "random"}, "witchcraft": {}}


def test_the_demo_plays_every_game_started_from_the_tablet(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole demo (rendered table, real vision, simulated hub): a tablet starts each of the five games
    in turn, Das Grimoire des Wahnsinns among them, and the bots move each one on; no bot move fails."""
    import httpx

    opened: list[str] = []
    made: list[demo.Bots] = []
    monkeypatch.setattr(demo.webbrowser, "open", opened.append)
    monkeypatch.setattr(demo, "TableBots", _recording(demo.TableBots, made))
    stop = threading.Event()
    running = threading.Thread(target=lambda: demo.main(["--seconds", "600", "--port", "0", "--host", "127.0.0.1",
                                                         "--pace", "0.02", "--seed", "3"]))
    running.start()
    try:
        while not (opened and made):
            assert running.is_alive(), capsys.readouterr().err
            stop.wait(0.05)
        code = capsys.readouterr().out.split("join?code=")[1].split()[0]
        bots = made[0]
        with httpx.Client(base_url=opened[0].rstrip("/"), timeout=30) as tablet:
            assert tablet.post("/api/session", json={"code": code}).status_code == 200
            for name, options in EVERY_GAME.items():
                players = ["Lera", "Kirill", "Katya"]
                started = tablet.post("/api/night/games", json={"game": name, "players": players, "options": options})
                assert started.status_code == 200, started.text
                _wait_for_moves(tablet, name, stop, running)
        assert bots.failures == 0
    finally:
        made[0].stop.set() if made else None
        running.join(timeout=30)
    assert not running.is_alive()


def _recording(cls: type, made: list[demo.Bots]) -> type:
    class Recorded(cls):  # type: ignore[valid-type, misc]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)
    return Recorded


def _wait_for_moves(tablet: object, name: str, stop: threading.Event, running: threading.Thread, moves: int = 12) -> None:
    """Until the bots made ``moves`` moves in the game ``name`` (the demo thread dying fails at once)."""
    for _ in range(3000):
        view = tablet.get("/api/game").json()  # type: ignore[attr-defined]
        assert view["game"] == name
        if view["version"] >= moves:
            return
        assert running.is_alive(), "the demo stopped"
        stop.wait(0.02)
    raise AssertionError(f"the bots never moved {name} on")


def test_a_bot_move_that_fails_is_reported_and_the_bots_play_on(app: FastAPI, night: Night,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    game = night.current
    assert game is not None
    real, broken = game.rules.random_action, [True]

    def fails_once(state: object, rng: random.Random) -> object:
        if broken.pop() if broken else False:
            raise KeyError("tokens")  # what the Grimoire's view once did to the bots
        return real(state, rng)

    monkeypatch.setattr(game.rules, "random_action", fails_once)
    status = app.state.table.status
    bots = demo.Bots(app.state.table, 0.0, random.Random(1), status)
    bots.step_safely()
    assert bots.failures == 1 and game.version == 0
    reported = {d["device"]: d for d in status.snapshot()}["bots"]
    assert reported["level"] == "warning" and "KeyError" in reported["message"]
    bots.step_safely()
    assert game.version == 1 and bots.failures == 1


@pytest.mark.parametrize("name", ["incantibus", "grimoire", "ravenskeep", "via_magica", "witchcraft"])
def test_the_terminal_demo_plays_each_game_to_its_end(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    from companion import demo as terminal

    assert terminal.main(["--game", name, "--seed", "2"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("final scores: Lera ") and (" win" in last or "nobody wins" in last)
