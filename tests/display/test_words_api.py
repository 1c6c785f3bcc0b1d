"""The pages' catalogues over HTTP, and the tablet's language by its switch or its browser."""
from __future__ import annotations

from fastapi.testclient import TestClient


def test_the_pages_fetch_each_catalogue(watcher: TestClient) -> None:
    german = watcher.get("/api/words/de")
    assert german.status_code == 200 and german.json()["nav.board"] == "Spielbrett"
    assert german.json()["incantibus.token.goblin"] == "Kobold"  # a game's terms join in
    assert watcher.get("/api/words", headers={"Accept-Language": "de-AT,de;q=0.9"}).json()["language"] == "de"
    watcher.cookies.set("incanto_language", "en")
    assert watcher.get("/api/words", headers={"Accept-Language": "de"}).json()["language"] == "en"
    refused = watcher.get("/api/words/xx")
    assert refused.status_code == 400 and "'xx'" in refused.json()["error"]
