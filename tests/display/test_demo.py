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
