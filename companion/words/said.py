"""A sentence said in English by a part that knows no tablet's language (the calibration tool, a route),
which also names its entry in the table's catalogues, so a tablet in another language says it in its own."""
from __future__ import annotations

from typing import Any


class Said(str):
    """A sentence in English that also names its entry in the table's catalogues (``words``: its key and
    values, ``companion/words/*.json``), so a tablet in another language says it in its own. The English
    here and the catalogue's English are the same sentence; values come already written out."""

    words: dict[str, Any]

    def __new__(cls, key: str, english: str, **values: Any) -> Said:
        said = super().__new__(cls, english.format(**values))
        # A value that is itself a ``Said`` (a colour's name) is said in the tablet's language too.
        said.words = {"key": key, "values": {k: v.words if isinstance(v, Said) else v for k, v in values.items()}}
        return said

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied (the status board copies what it is told) as the sentence it is, with its words."""
        return _again, (str(self), self.words)


class InEach(Said):
    """A value written in each language where it comes from (a data file's description of a place), not
    from the catalogues: said in the tablet's language, English where the file lacks that language."""

    def __new__(cls, texts: dict[str, str]) -> InEach:  # type: ignore[override]
        said = str.__new__(cls, texts["en"])
        said.words = {"in": dict(texts)}
        return said


def _again(text: str, words: dict[str, Any]) -> Said:
    said = str.__new__(Said, text)
    said.words = words
    return said


def said_again(text: str, words: object) -> str:
    """A sentence read back from a file with the words it was written with (``{key, values}``), as the
    ``Said`` it was; the bare text where the file kept no words (written before they were kept)."""
    if isinstance(words, dict) and isinstance(words.get("key"), str) and isinstance(words.get("values"), dict):
        return _again(text, words)
    return text


def words_of(text: object) -> dict[str, Any] | None:
    """The catalogue's key and values of ``text`` (a ``Said``, or an error raised with one); else None."""
    if isinstance(text, BaseException):
        text = text.args[0] if len(text.args) == 1 else None
    return getattr(text, "words", None) if isinstance(text, Said) else None
