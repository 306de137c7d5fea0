"""The rule variants of RULES.md section 8, with the names and values of its table."""

from __future__ import annotations

import dataclasses
import re
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from valtti.engine.cards import text_of

FirstForehand = Literal["left_of_dealer", "club_ace_holder"]
WholeAskAfterTrump = Literal["not_trump_team", "anyone", "nobody"]
OnOff = Literal["off", "on"]
BothOnTarget = Literal["draw", "continue"]

#: Every switch and its allowed values, default first (RULES.md 8).
SWITCHES: Final[Mapping[str, tuple[Any, ...]]] = {
    "target": (10, 12),
    "overshoot_to": (7,),
    "first_forehand": ("left_of_dealer", "club_ace_holder"),
    "whole_ask_after_trump": ("not_trump_team", "anyone", "nobody"),
    "must_overtrump": (True, False),
    "must_trump_if_cannot_overtrump": (True, False),
    "first_trick_ace": ("off", "on"),
    "both_on_target": ("draw", "continue"),
}


#: The yes/no switches, each with its (on, off) values of the table. In the text form
#: (``Variant.parse``, ``str``, the command line's ``--variant``) every one of them is written
#: ``on`` or ``off`` and takes ``true`` or ``false`` too; a record keeps the table's values.
_YES_NO: Final[Mapping[str, tuple[Any, Any]]] = {
    name: (True, False) if True in values else ("on", "off")
    for name, values in SWITCHES.items()
    if set(values) in ({True, False}, {"on", "off"})
}
#: The text form's words for a yes/no switch: whether each is its "on".
_ON_OFF: Final = {"on": True, "true": True, "off": False, "false": False}


class SwitchError(ValueError):
    """A switch that RULES.md 8 does not have (``known`` false), or a value that one cannot
    take (``value``; ``allowed``: the values it takes, spelled as the input does, a record's
    form unless given); ``str()`` says it in English."""

    def __init__(
        self, switch: str, value: Any = None, known: bool = True, allowed: str | None = None
    ) -> None:
        self.allowed = (allowed or allowed_text(switch)) if known else None
        super().__init__(
            bad_value_text(switch, value, self.allowed) if known else unknown_switch_text(switch)
        )
        self.switch = switch
        self.value = value
        self.known = known


@dataclass(frozen=True, slots=True)
class Variant:
    """One choice for every switch; the defaults are the basic game."""

    target: int = 10
    overshoot_to: int = 7
    first_forehand: FirstForehand = "left_of_dealer"
    whole_ask_after_trump: WholeAskAfterTrump = "not_trump_team"
    must_overtrump: bool = True
    must_trump_if_cannot_overtrump: bool = True
    first_trick_ace: OnOff = "off"
    both_on_target: BothOnTarget = "draw"

    def __post_init__(self) -> None:
        for name, allowed in SWITCHES.items():
            value = getattr(self, name)
            # bool is an int: keep True from passing as a target and 1 from passing as True.
            if not any(type(value) is type(a) and value == a for a in allowed):
                raise SwitchError(name, value)

    def changes(self) -> dict[str, Any]:
        """The switches that differ from the defaults, as in a record's ``variant`` object."""
        default = Variant()
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    @classmethod
    def from_mapping(cls, switches: Mapping[str, Any]) -> Variant:
        """From a record's ``variant`` object; ``SwitchError`` names an unknown switch or value."""
        values: dict[str, Any] = {}
        for name, value in switches.items():
            if name not in SWITCHES:
                raise SwitchError(name, known=False)
            values[name] = _coerce(name, value)
        return cls(**values)

    @classmethod
    def parse(cls, text: str) -> Variant:
        """From ``name=value`` pairs split by commas or spaces: ``target=12,first_trick_ace=on``
        (spaces around ``=`` are allowed); a yes/no switch is ``on`` or ``off`` (``true`` or
        ``false`` too); ``default`` alone, as ``str`` writes it, is the basic game.
        ``SwitchError`` for an unknown switch or value (a yes/no switch's allowed spelled
        ``on | off``), ``ValueError`` for a switch without a value or named twice."""
        if text_of(text, "a variant").strip().lower() == "default":
            return cls()
        values: dict[str, Any] = {}
        for item in re.sub(r"\s*=\s*", "=", text).replace(",", " ").split():
            name, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"variant switch {reprlib.repr(item)} needs a value: name=value")
            if name in values:
                raise ValueError(f"variant switch {reprlib.repr(name)} is given twice")
            values[name] = _on_off(name, value) if name in _YES_NO else value
        return cls.from_mapping(values)

    def __str__(self) -> str:
        """The text form that ``parse`` reads; ``default`` for the basic game."""
        return ",".join(f"{k}={_word(k, v)}" for k, v in self.changes().items()) or "default"


def _coerce(name: str, value: Any) -> Any:
    """Accept the table's value, or its text form (``"12"``, ``"false"``), for one switch."""
    for allowed in SWITCHES[name]:
        if type(value) is type(allowed) and value == allowed:
            return allowed
        if isinstance(value, str) and value.strip().lower() == _text(allowed):
            return allowed
    raise SwitchError(name, value)


def _on_off(name: str, word: str) -> Any:
    """The value of the yes/no switch ``name`` that the text form's ``word`` gives."""
    on = _ON_OFF.get(word.strip().lower())
    if on is None:
        raise SwitchError(name, word, allowed="on | off")
    return _YES_NO[name][0 if on else 1]


def _word(name: str, value: Any) -> str:
    """A switch's value in the text form."""
    if name in _YES_NO:
        return "on" if value == _YES_NO[name][0] else "off"
    return _text(value)


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def allowed_text(name: str) -> str:
    """The values that the switch ``name`` takes, as a record writes them: ``10 | 12``."""
    return " | ".join(_text(a) for a in SWITCHES[name])


def bad_value_text(name: str, value: Any, allowed: str | None = None) -> str:
    allowed = allowed or allowed_text(name)
    return f"variant switch {name} cannot be {reprlib.repr(value)}: allowed {allowed}"


def unknown_switch_text(name: str) -> str:
    return f"unknown variant switch {reprlib.repr(name)}: known are {', '.join(SWITCHES)}"
