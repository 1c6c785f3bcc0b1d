"""The devices' health: what is wrong and what to do about it. The Pi's own screen also sees the
wrong join codes typed anywhere on the network."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from companion.web.deps import HubDep, JoinGuardDep, OnThePi, SessionsDep, TableDep

router = APIRouter(prefix="/api/status", tags=["status"])


@router.get("")
def status(table: TableDep, hub: HubDep, guard: JoinGuardDep, sessions: SessionsDep, on_the_pi: OnThePi) -> dict[str, Any]:
    joins = {**guard.snapshot(), "sessions": sessions.count()} if on_the_pi else None
    return {"devices": table.status.snapshot(), "display": {"clients": len(hub.clients), "dropped": hub.dropped},
            "joins": joins}
