"""The answers the API declares in its OpenAPI schema beside each route's own: every refusal has the
same shape, and each route lists every status it can give."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class Problem(BaseModel):
    rule: str
    message: str
    player: str | None = None
    target: str | None = None


class Refusal(BaseModel):
    error: str  # one line naming the bad value
    kind: str  # the refusal's name, e.g. "IllegalAction", "WrongJoinCode", "DiskFull"
    problems: list[Problem] | None = None  # an illegal action: every problem at once
    stale: bool | None = None  # a tap made at an older version: the page refreshes
    version: int | None = None


MEANING = {
    400: "the body is not readable JSON, or the action is malformed",
    401: "no session: join with the code shown on the display",
    403: "a wrong join code, a page from another site, or something only the Pi's own screen may do",
    404: "no game yet, or no such question",
    409: "a stale tap, nothing to undo or redo, or calibration asked of a display without a camera",
    413: "the body is larger than the display accepts",
    421: "the request names another host than this display",
    422: "a field is missing, of the wrong type, or not valid text; or the rules refuse the action",
    429: "too many requests, or joining is paused after many wrong codes (see Retry-After)",
    503: "the game's store could not be written",
    507: "the disk is full: nothing was changed",
}

EVERY_ROUTE = (400, 403, 413, 421, 422)  # the guard's and the body's refusals can meet any route
CHANGES = (401, 429, 503, 507)  # every change needs a session and a write


def refused(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that can refuse with ``codes``."""
    return {code: {"model": Refusal, "description": MEANING[code]} for code in sorted(set(codes))}
