"""The display's one validated settings object (the ``display`` part of a night's settings file).

Strict: a port of "8000" in a file is refused and named, not quietly read as a number."""
from __future__ import annotations

import secrets

from pydantic import BaseModel, ConfigDict, Field


def new_join_code() -> str:
    """Six digits: easy to type on a tablet, and the join rate limit makes guessing hopeless."""
    return f"{secrets.randbelow(10**6):06d}"


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    host: str = "0.0.0.0"
    port: int = Field(8000, ge=0, le=65535)
    join_code: str = Field(default_factory=new_join_code, pattern=r"^[0-9]{6}$")  # unset: the stored code
    actions_per_minute: int = Field(120, ge=1)  # per session: a busy table taps far less
    joins_per_minute: int = Field(10, ge=1)  # per address: wrong codes cannot be brute-forced
    join_failures_per_minute: int = Field(30, ge=1)  # from every address together; then joining pauses
    hosts: tuple[str, ...] = ()  # names the display is reached by besides its address and hostname
    max_body_bytes: int = Field(16_384, ge=256)
    client_queue: int = Field(64, ge=2)  # messages a tablet may fall behind before it is dropped
    send_timeout_s: float = Field(2.0, gt=0)  # a sleeping tablet is dropped after this, never waited for
    session_hours: float = Field(24.0, ge=0.25, le=24.0 * 31, allow_inf_nan=False)  # from a short game to a month of nights
