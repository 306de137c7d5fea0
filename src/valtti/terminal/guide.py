"""``help``: the rules of the current moment, with every fact taken from the engine.

Why a card or a declaration is not legal is the engine's refusal (``Deal.refusal``); what a
declaration scores and whom a question locks is read from a copy of the deal after it.
"""

from __future__ import annotations

from valtti.engine import Action, ActionKind, Card, Deal, Phase, Seat
from valtti.terminal.commands import SUIT_NAMES, action_words, command_words, word
from valtti.terminal.i18n import _
from valtti.terminal.phrases import (
    cards_text,
    in_hand_order,
    marriage_points_text,
    played_by,
    reason_text,
    seat_text,
    seats_text,
)


def moment(deal: Deal, you: Seat) -> str:
    """What ``you`` may do now and why the rest is not allowed."""
    lines: list[str] = []
    phase = deal.phase
    legal = deal.legal_actions()
    if phase is Phase.DECLARATION:
        lines.append(
            _(
                "You took the trick. Before leading you may make one declaration or question; "
                "leading a card at once declares nothing."
            )
        )
        for action in legal:
            if action.kind is not ActionKind.PLAY:
                lines.append(f"  {action_words(action)}: {effect(deal, action)}")
        whole = Action.ask_whole()
        refusal = deal.refusal(whole)
        if refusal is not None:
            lines.append(f"  {action_words(whole)}: {reason_text(refusal)}")
    elif phase is Phase.ANSWER:
        lines.append(
            _(
                "{seat} asked you for a whole marriage and you hold more than one: name one. "
                "Which one is your choice. The others stay hidden in your hand and are not "
                "broken: the question locks only {seat}, so you may declare another of them "
                "when you win a trick."
            ).format(seat=seat_text(deal.asker) if deal.asker is not None else "")
        )
        lines.append("  " + " · ".join(action_words(a) for a in legal))
    else:
        lines.append(_trick_situation(deal))
    if phase is not Phase.ANSWER:
        lines.extend(_cards(deal, legal))
    lines.append(usage())
    return "\n".join(lines)


def _trick_situation(deal: Deal) -> str:
    trick = deal.current_trick
    trumps = (
        _("No trumps yet.")
        if deal.trump is None
        else _("Trumps: {suit}.").format(suit=deal.trump.symbol)
    )
    if trick is None or not trick.cards:
        return _("You lead trick {number}. {trumps}").format(
            number=deal.tricks_played + 1, trumps=trumps
        )
    winning = deal.winning_card
    assert winning is not None  # a trick with cards has a winning card
    winner = played_by(trick, winning)
    return _("Trick {number}: {leader} led {suit}; {card} ({seat}) wins so far. {trumps}").format(
        number=trick.number,
        leader=seat_text(trick.leader),
        suit=trick.cards[0].suit.symbol,
        card=winning.unicode(),
        seat=None if winner is None else seat_text(winner),
        trumps=trumps,
    )


def _cards(deal: Deal, legal: list[Action]) -> list[str]:
    """The legal cards, and the others grouped by the engine's refusal."""
    player = deal.current_player
    assert player is not None
    hand = deal.hand(player)  # the cards named as the hand shows them
    playable = [a.card for a in in_hand_order(hand, legal) if a.card is not None]
    why = {r.action: r for r in deal.refusals(player) if r.action is not None}
    refused: dict[str, list[Card]] = {}
    for action in in_hand_order(hand, why):
        assert action.card is not None
        refused.setdefault(reason_text(why[action]), []).append(action.card)
    if not refused:
        return [_("Any card of your hand may be played.")]
    lines = [_("Legal cards: {cards}").format(cards=cards_text(playable))]
    for reason, cards in refused.items():
        lines.append(
            _("Not legal: {cards} — {reason}").format(cards=cards_text(cards), reason=reason)
        )
    return lines


def effect(deal: Deal, action: Action) -> str:
    """What a legal declaration, question or answer does, read from a copy of the deal."""
    after = deal.copy()
    after.apply(action)
    player = deal.current_player
    assert player is not None
    partner = player.partner
    if action.kind in (ActionKind.DECLARE, ActionKind.ANSWER):
        return marriage_points_text(after.events[-1])
    gain = (
        _("a yes makes that suit trumps: +2")
        if deal.trump is None
        else _("a yes scores a little trump: +1")
    )
    locked = seats_text(after.locked - deal.locked) or _("nobody new")
    if action.kind is ActionKind.ASK_WHOLE:
        asked = _("{partner} names a whole marriage if holding one ({gain}), otherwise says no.")
    else:
        assert action.suit is not None
        asked = _("{partner} says yes when holding the other half of {suit} ({gain}), else no.")
    locks = _("Locked afterwards: {seats} (their own marriages are broken for this deal).")
    return (
        asked.format(
            partner=seat_text(partner),
            gain=gain,
            suit=None if action.suit is None else action.suit.symbol,
        )
        + " "
        + locks.format(seats=locked)
    )


def explain(deal: Deal, action: Action) -> str:
    """Whether one action is legal now, why not, or what it would do."""
    refusal = deal.refusal(action)
    shown = action_words(action)
    if refusal is not None:
        return _("{action} is not legal now: {reason}.").format(
            action=shown, reason=reason_text(refusal)
        )
    if action.kind is ActionKind.PLAY:
        return _("{action} is legal now.").format(action=shown)
    return _("{action} is legal now: {effect}").format(action=shown, effect=effect(deal, action))


def usage() -> str:
    """The commands, in the words of the active language."""
    names = {f"{suit.name.lower()}_name": word(name, "suit") for suit, name in SUIT_NAMES.items()}
    return _(
        "Type a card (as, 10d, td) or its number; {declare} h; {ask} {whole}; {ask} {half} s; "
        "{answer} c; {help} [a card or declaration]; {hint}; {review}; {score}; {tricks}; {last}; "
        "{save} FILE; {undo}; {quit}. A suit is s, h, d, c, its symbol or its name "
        "({s_name}, {h_name}, {d_name}, {c_name}). Tab completes. A long reply has pages: "
        "PgDn or {more} for the next, PgUp for the one before."
    ).format(**command_words(), **names)
