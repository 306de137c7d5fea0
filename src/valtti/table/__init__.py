"""The seat driver, between the players and the front ends: who sits where, asked in turn, and
every seed of a match from one function. Imports only the engine and the players."""

from valtti.table.driver import Clock, Computer, Occupant, PlayerFault, Table, decide_once
from valtti.table.seeds import deal_cards, decision_seed, derive_seed, first_dealer, fresh_seed

__all__ = [
    "Clock",
    "Computer",
    "Occupant",
    "PlayerFault",
    "Table",
    "deal_cards",
    "decide_once",
    "decision_seed",
    "derive_seed",
    "first_dealer",
    "fresh_seed",
]
