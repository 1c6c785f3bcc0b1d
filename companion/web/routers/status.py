"""The devices' health: what is wrong and what to do about it."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from companion.web.deps import HubDep, TableDep

router = APIRouter(prefix="/api/status", tags=["status"])


@router.get("")
def status(table: TableDep, hub: HubDep) -> dict[str, Any]:
    return {"devices": table.status.snapshot(), "display": {"clients": len(hub.clients), "dropped": hub.dropped}}
