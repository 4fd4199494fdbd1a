"""Everything Schwarzmarkt's presentation words, rendered in the language being spoken: the cases the language
tests (`test_words.py`) read — the status, every hand with its buttons, the help lines, every suggestion, a line for
every event kind (from crafted events and from seeded random games), every refusal code, the waits' tasks, the
options' help, the rules summary and the picture's labels. Each case is (where, text, limit): the Discord limit the
text must respect (None: none beyond a message's)."""

import random
import re
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import drawing
from bot.games.schwarzmarkt import picture as picture_module
from bot.games.schwarzmarkt.commands import parse_cards
from bot.games.schwarzmarkt.narration import PRIVATE_KINDS, PUBLIC_KINDS
from bot.games.schwarzmarkt.presentation import SchwarzmarktPresentation
from bot.games.schwarzmarkt.refusals import CODES
from bot.post import Post
from bot.service import Refusal
from engine.errors import rule
from engine.events import Event
from engine.schwarzmarkt import randomplay
from engine.schwarzmarkt.actions import Target, Trade
from engine.schwarzmarkt.state import SchwarzmarktState
from tests.bot.games.schwarzmarkt.test_presentation import NAMES, table_for
from tests.engine.schwarzmarkt.helpers import GAME, T0, arrange, hand, new_game, open_offer, pass_turn, play, play_event

P = SchwarzmarktPresentation()
ENGINE = Path(__file__).resolve().parents[4] / "engine" / "schwarzmarkt"
PRINTED = ("Waren knapp", "Spionage", "Schnelles Geschäft", "Zwangstausch", "Razzia", "Neue Ware entdeckt")
PRINTED += ("Limit", "Alte Rechnung", "Verdorbene Ware")
PROPER = ("Schwarzmarkt", *PRINTED)
"""Words that are names in every language: the game's and the cards' printed (German) names."""

Case = tuple[str, str, int | None]


def engine_codes() -> set[str]:
    """Every refusal code the engine can raise (`rule("…"`), read from its sources."""
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        found |= set(re.findall(r'\brule\(\s*"([a-z_]+)"', path.read_text()))
    return found


def states() -> list[tuple[str, SchwarzmarktState]]:
    """A table in every phase and step the presentation words."""
    out: list[tuple[str, SchwarzmarktState]] = [("start", new_game())]
    rich = arrange(
        new_game(), {0: hand("2 coffee", "sugar"), 2: hand("3 flour"), 3: hand("butter")}, luxury=[9, 0, 0, 0]
    )
    for kind in ("espionage", "quick_deal", "forced_swap", "raid", "new_goods", "old_debt"):
        out.append((kind, play_event(rich, kind)))
    out.append(("forced_swap give", play(play_event(rich, "forced_swap"), (0, Target(seat=2)))))
    out.append(("raid pick", play(play_event(rich, "raid"), (0, Target(seat=2)))))
    forced = play_event(play_event(play_event(rich, "limit"), "shortage"), "spoiled_goods")
    out.append(("in force", forced))
    trading = open_offer(forced, [0, 0, 2, 0, 2])
    out.append(("trade", trading))
    for _ in range(3):
        trading = pass_turn(trading, 1)
    out.append(("trade later", trading))
    quiet = arrange(new_game(), {0: hand("3 potatoes"), 1: hand("3 flour"), 2: hand("coffee", "2 sugar")})
    last = open_offer(quiet, [0, 0, 3, 0, 0])
    for move in (4, 3, 2, 2, 1, 1):
        last = pass_turn(last, move)
    out.append(("last call", last))
    spoiled = open_offer(play_event(rich, "spoiled_goods"), [0, 0, 2, 0, 2])
    spoiled = play(spoiled, (spoiled.turn, Trade(cards=(), move=1)))
    out.append(("spoiled", spoiled))
    left = GAME.remove_seat(new_game(), 2, T0)
    assert left is not None
    out.append(("left", left.state))
    out.append(("over", randomplay.play(GAME, 4, 3).state))
    return out


def post_cases(where: str, post: Post) -> Iterator[Case]:
    if post.title:
        yield f"{where} title", post.title, 256
    if post.description:
        yield f"{where} description", post.description, 4096
    if post.footer:
        yield f"{where} footer", post.footer, 2048
    if post.text:
        yield f"{where} text", post.text, 2000
    for name, value in post.fields:
        yield f"{where} field name", name, 256
        yield f"{where} field", value, 1024
    for button in post.buttons:
        yield f"{where} button", button.label, 80


def table_cases(name: str, state: SchwarzmarktState, status: str = "active") -> Iterator[Case]:
    table = table_for(state, status)
    yield from post_cases(f"{name}: status", P.status(table))
    for seat in range(state.seats if state.seats <= len(NAMES) else len(NAMES)):
        yield from post_cases(f"{name}: hand {seat}", P.private_view(table, seat))
        for line in P.help_lines(table, seat):
            yield f"{name}: help", line, 1024
        for _action, words in P.move_choices(table, seat, GAME.legal_actions(state, seat)):
            yield f"{name}: suggestion", words, 100
    for wait in GAME.waiting_on(state):
        yield f"{name}: wait", P.wait_task(table, wait, table.names).task, 200
    for line in P.summary(table):
        yield f"{name}: summary", line, 1024


EVENTS: list[Event] = [
    Event(kind="starter", data={"seat": 0, "dealer": 3, "hand_size": 9, "black_market_hand": 3}),
    Event(kind="starter", data={"seat": 1, "round": 2}),
    Event(kind="starter", data={"seat": 1}),
    Event(kind="offer", data={"seat": 0, "wants": [0, 1, 2, 0, 0], "price": 1, "in_force": [], "drew": True}),
    Event(
        kind="offer",
        data={
            "seat": 0,
            "wants": [1, 0, 0, 2, 1],
            "price": 1,
            "in_force": ["shortage", "spoiled_goods", "limit"],
            "end_price": 25,
            "drew": False,
            "by_default": True,
        },
    ),
    Event(kind="event_played", data={"seat": 0, "event": "raid", "drew": True}),
    Event(kind="event_played", data={"seat": 0, "event": "limit", "drew": False, "by_default": True}),
    Event(kind="trade_turn", data={"seat": 1, "price": 5, "last_call": False}),
    Event(kind="trade_turn", data={"seat": 1, "price": 50, "last_call": True}),
    Event(kind="trade", data={"seat": 1, "cards": [0, 0, 2, 0, 1], "price": 8, "paid": 24, "spoiled": False}),
    Event(kind="trade", data={"seat": 1, "cards": [1, 0, 0, 0, 0], "price": 8, "paid": 4, "spoiled": True, "half": 4}),
    Event(kind="moved", data={"seat": 1, "move": 1, "marker": 4, "price": 4}),
    Event(kind="no_trade", data={"seat": 1, "move": 0}),
    Event(kind="no_trade", data={"seat": 1, "move": 0, "by_default": True}),
    Event(kind="no_trade", data={"seat": 1, "move": 1, "marker": 2, "price": 2}),
    Event(kind="no_trade", data={"seat": 1, "move": 3, "marker": 5, "price": 5, "by_default": True}),
    Event(kind="round_end", data={"why": "all_traded"}),
    Event(kind="round_end", data={"why": "last_call", "price": 50}),
    Event(kind="round_end", data={"why": "left_last_call"}),
    Event(kind="in_force", data={"event": "shortage", "limit": 25}),
    Event(kind="in_force", data={"event": "limit", "limit": 25}),
    Event(kind="in_force", data={"event": "spoiled_goods", "limit": 25}),
    Event(kind="void", data={"event": "quick_deal", "seat": 0, "why": "no_goods"}),
    Event(kind="void", data={"event": "new_goods", "seat": 0, "why": "cant_pay", "cost": 5}),
    Event(kind="void", data={"event": "new_goods", "seat": 0, "why": "pile_empty"}),
    Event(kind="void", data={"event": "espionage", "seat": 0, "why": "no_target"}),
    Event(kind="void", data={"event": "raid", "seat": 0, "why": "left"}),
]
for kind, step in [
    ("espionage", "target"),
    ("forced_swap", "target"),
    ("forced_swap", "give"),
    ("raid", "target"),
    ("raid", "pick"),
    ("old_debt", "target"),
    ("quick_deal", "pick"),
    ("new_goods", "pick"),
]:
    about = {"event": kind, "step": step, "seat": 0, "target": 2, "quick_deal": 20, "cost": 5}
    EVENTS.append(Event(kind="choose", data=about))
    EVENTS.append(Event(kind="target", data={**about, "by_default": step == "give"}))
EVENTS += [
    Event(kind="espionage", data={"seat": 0, "target": 2, "shown": [0, 1, 1, 0, 0]}),
    Event(kind="espionage", data={"seat": 0, "target": 2, "shown": [0, 0, 0, 0, 1], "by_default": True}),
    Event(kind="quick_deal", data={"seat": 0, "good": "potatoes", "paid": 20}),
    Event(kind="forced_swap", data={"seat": 0, "target": 2, "count": 1}),
    Event(kind="forced_swap", data={"seat": 0, "target": 2, "count": 2, "by_default": True}),
    Event(kind="new_goods", data={"seat": 0, "paid": 5}),
    Event(kind="raid", data={"seat": 0, "target": 2, "good": "butter", "lost": 3}),
    Event(kind="raid", data={"seat": 0, "target": 2, "good": "flour", "lost": 1}),
    Event(kind="raid", data={"seat": 0, "target": 2, "good": "sugar", "lost": 0, "by_default": True}),
    Event(kind="old_debt", data={"seat": 0, "target": 2}),
    Event(kind="all_empty", data={}),
    Event(kind="round_over", data={"round": 1, "emptier": 2, "luxury": [[0, 12], [1, 30], [2, 8]], "hand_size": 9}),
    Event(kind="round_over", data={"round": 1, "emptier": None, "luxury": [[0, 12], [1, 30]], "hand_size": 9}),
    Event(kind="refill", data={"round": 2, "sizes": [[2, 9], [3, 9], [0, 9]]}),
    Event(kind="game_over", data={"round": 2, "emptier": 1, "luxury": [[0, 1]]}),
    Event(kind="game_over", data={"round": 2, "emptier": None, "luxury": [[0, 1]]}),
    Event(kind="left", data={"seat": 3}),
    Event(kind="drew", data={"seat": 0, "card": 4, "wants": [0, 2, 0, 0, 1]}, to=(0,)),
    Event(kind="drew", data={"seat": 0, "card": 4, "event": "old_debt"}, to=(0,)),
    Event(kind="took", data={"seat": 0, "good": "potatoes"}, to=(0,)),
    Event(kind="swapped", data={"seat": 0, "target": 2, "given": [0, 0, 1, 0, 1], "taken": [2, 0, 0, 0, 0]}, to=(0, 2)),
    Event(kind="debt_paid", data={"seat": 0, "target": 2, "good": "coffee"}, to=(0, 2)),
    Event(kind="refilled", data={"seat": 0, "drawn": [1, 0, 3, 0, 0]}, to=(0,)),
]

REFUSALS = [
    rule("player_count", low=3, high=5, seats=6),
    rule("dealer_not_seated", seats=4),
    rule("game_over"),
    rule("clock_only"),
    rule("clock_deadlines_only"),
    rule("not_playing"),
    rule("cannot_play_now", phase="trade", seat=1, event=None),
    rule("cannot_play_now", phase="event", seat=2, event="raid"),
    rule("no_trading_round", phase="play", seat=1, event=None),
    rule("no_trading_round", phase="over", seat=1, event=None),
    rule("not_your_trading_turn", seat=2),
    rule("not_a_move"),
    rule("stale_deadline"),
    rule("card_not_in_hand", card=7),
    rule("not_a_good", good="tea"),
    rule("offer_doesnt_want", good="sugar", still=[0, 0, 3, 0, 0]),
    rule("offer_wants_only", good="coffee", n=3, still=[0, 0, 3, 0, 1]),
    rule("shortage_one_card"),
    rule("not_enough_goods", good="coffee", n=0),
    rule("not_enough_goods", good="potatoes", n=1),
    rule("last_call_stays"),
    rule("trade_moves_one"),
    rule("move_at_least_one", top=4),
    rule("move_at_least_one", top=1),
    rule("move_past_die", space=10, die=2),
    rule("move_past_end", end=12, top=1),
    rule("target_self"),
    rule("target_not_playing"),
    rule("target_no_goods", target=3),
    rule("no_such_good", good="coffee"),
    rule("pile_lacks_good", good="butter"),
    rule("give_one_or_two"),
    rule("target_holds_fewer", target=1, n=1),
    rule("no_event_pending"),
    rule("not_your_event", seat=2, event="old_debt"),
    rule("not_that_step", event="raid", step="pick", seat=0, target=2),
    rule("already_left", seat=3),
]


def event_cases() -> Iterator[Case]:
    table = table_for(new_game())
    for event in EVENTS:
        if event.public:
            line = P.event_line(table, event)
            assert line, f"no words for {event.kind} {event.data}"
            yield f"event {event.kind}", line, 2000
        else:
            note = P.private_line(table, event)
            assert note, f"no words for {event.kind} {event.data}"
            yield f"note {event.kind}", note, 1024


def played_cases(seed: int) -> Iterator[Case]:
    """Every event of a seeded random four-player game, its narration or note, and the table every few steps."""
    chance = random.Random(seed)
    now = randomplay.START
    state = GAME.setup(4, GAME.parse_options({}), seed, now)
    events = list(GAME.setup_events(state))
    for step in range(2000):
        table = table_for(state)
        if step % 25 == 0:
            yield from table_cases(f"seed {seed} step {step}", state)
        for event in events:
            text = P.event_line(table, event) if event.public else P.private_line(table, event)
            assert text is not None, f"no words for {event.kind}"
            yield f"played {event.kind}", text, 2000
        if state.phase == "over":
            break
        actor, action = randomplay.choose(GAME, state, chance)
        now += timedelta(minutes=chance.randint(1, 90))
        outcome = GAME.apply(state, actor, action, now)
        state, events = outcome.state, list(outcome.events)


def refusal_cases() -> Iterator[Case]:
    table = table_for(new_game())
    for error in REFUSALS:
        words = P.refusal_words(table, error)
        assert words != error.message, f"no words for {error.code}"
        yield f"refusal {error.code}", words, 2000
    for typed in ("2 tea", "99 coffee"):
        with pytest.raises(Refusal) as refused:
            parse_cards(typed)
        yield "typed refusal", str(refused.value), 2000


def picture_cases(monkeypatch: pytest.MonkeyPatch) -> Iterator[Case]:
    drawn: list[str] = []
    real = drawing.text

    def text(draw: Any, at: Any, words: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(words)
        return real(draw, at, words, *args, **kwargs)

    monkeypatch.setattr(drawing, "text", text)
    for name, state in states():
        if name in ("start", "raid", "in force", "trade later", "last call", "spoiled", "left", "over"):
            picture_module.draw_picture(GAME.view(state, None), (*NAMES, "erik")[: state.seats])
    monkeypatch.setattr(drawing, "text", real)
    for words in drawn:
        yield "picture", words, None


def all_cases(monkeypatch: pytest.MonkeyPatch) -> list[Case]:
    """Every case, in a fixed order (the same in every language)."""
    # The platform's own lines (who is awaited) are the platform's words, not this game's: left out here.
    module = sys.modules["bot.games.schwarzmarkt.presentation"]  # the package's `presentation` is the instance
    monkeypatch.setattr(module, "waiting_lines", lambda table: [])
    cases: list[Case] = []
    for name, state in states():
        if state.seats <= len(NAMES):
            cases += table_cases(name, state)
    cases += table_cases("paused", new_game(), "paused")
    cases += table_cases("abandoned", new_game(), "abandoned")
    cases += event_cases()
    for seed in (1, 2):
        cases += played_cases(seed)
    cases += refusal_cases()
    cases += [(f"option {o}", P.option_help(o) or "", 100) for o in ("trade_hours", "dealer")]
    cases.append(("rules", P.rules(GAME), 2000))
    cases += picture_cases(monkeypatch)
    return cases


__all__ = ["CODES", "PRIVATE_KINDS", "PROPER", "PUBLIC_KINDS", "all_cases", "engine_codes"]
