"""After a contest the camera checks that the wands changed hands at the table."""
from __future__ import annotations

from companion.status import StatusBoard
from companion.tableside import TableSide
from companion.night_at_the_table.rendered import RenderedTable
from companion.tableside.swap import problem_message, swap_message, swapped_wands
from companion.web.table import Table
from vision.swap import SwapProblem

from .conftest import device, wait_for

CONTEST = {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r6"}  # Rosa (4) beats Katya (3): they swap


def wands_status(status: StatusBoard) -> dict:  # type: ignore[type-arg]
    return device(status, "wands") or {}


def test_a_swap_not_made_is_reported_until_the_wands_change_hands(seeing_side: TableSide, rendered: RenderedTable,
                                                                 table: Table, status: StatusBoard) -> None:
    table.propose({"type": "cast", "targets": CONTEST}, "tap-1", None)
    assert table.view()["wands"]["Katya"] == 4 and table.view()["wands"]["Rosa"] == 3
    warning = wait_for(lambda: wands_status(status).get("level") == "warning" and wands_status(status))
    assert warning, status.snapshot()
    assert warning["message"] == "wand 3 is still at Katya's seat and wand 4 at Rosa's: Katya and Rosa should swap"
    assert warning["fix"]
    assert seeing_side.notices.recent("swap")[-1]["message"] == warning["message"]
    rendered.hold(table.view()["wands"])  # the players hand their wands over
    assert wait_for(lambda: wands_status(status).get("level") == "ok"), status.snapshot()


def test_a_swap_made_at_once_is_checked_and_ok(seeing_side: TableSide, rendered: RenderedTable, table: Table,
                                              status: StatusBoard) -> None:
    table.propose({"type": "cast", "targets": CONTEST}, "tap-1", None)
    rendered.hold(table.view()["wands"])
    assert seeing_side.swaps.check() == []
    assert wands_status(status)["level"] == "ok"
    assert seeing_side.notices.recent("swap") == []


def test_a_casting_without_a_contest_has_no_swap_to_check(seeing_side: TableSide, table: Table) -> None:
    table.propose({"type": "cast", "targets": {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r2"}}, None, None)
    assert swapped_wands(table.view()) == {}
    assert seeing_side.swaps.check() is None


def test_the_swap_message_names_both_players() -> None:
    assert problem_message(SwapProblem(4, "Katya", "Lera")) == "wand 4 is still at Lera's seat: Lera and Katya should swap"
    assert problem_message(SwapProblem(4, "Katya", None)) == SwapProblem(4, "Katya", None).message
    both = [SwapProblem(2, "Kirill", "Lera"), SwapProblem(4, "Lera", "Kirill"), SwapProblem(1, "Rosa", None)]
    assert swap_message(both) == ("wand 2 is still at Lera's seat and wand 4 at Kirill's: Lera and Kirill should swap; "
                                  + problem_message(both[2]))
