"""Kesse Rügen's computer player and autopilot (`engine.policy.Policy`), from a seat's own view and legal moves only.

- The fist is mixed, never a fixed choice: weights lean towards 2 (a higher total gives the right guesser more
  actions, and the policy guesses high), within the supply.
- The guess is the total with the best expected reward (probability × actions) given what the seat knows: its own
  fist, the opponent's supply and, for the second guesser, the first guess (read through a model of a sensible
  guesser, blended with a random one so that any opponent is covered). The first guesser samples among the good
  totals instead of always naming the best, since its guess is public before the second one and would give its fist
  away.
- The actions are planned: a short search over every sequence of the remaining actions (at most 4, on a light copy
  of the board with transpositions merged), scored by fields held (the seat's own, and the leader's fields weighing
  more than other opponents'), tubers left to plant (reclaim when short), where the pawn stands for the next turn,
  and empty fields next to an opponent's pawn (planting there blocks them).
- 3–4 players: it challenges the opponent with the fewest fields (a duel may hand the challenged player actions).

Levels (the autopilot is the same at every level):
- easy: the player above, exactly as it was first written (issue 16): fist weights and guesses that count a total's
  actions as the total itself;
- normal: the same, except that with an empty supply it challenges an opponent whose fist may hold something (a
  duel of two empty fists totals 0 for ever: such tables never ended). Guesses valued by the board
  (`_ActionValues`, `_guess(worth=…)`) were tried here and stalled 4-player tables: not used at normal for now;
- hard: the duel as a game (`engine.kesse_ruegen.duel`, CFR+ over the fists and guesses) for the board values of
  both duellists (`_ActionValues`: the planner's best score after 1–2 actions, less the score now, extended to 3–4):
  a restricted Nash response to a model of a sensible guesser (`engine.kesse_ruegen.reading`: a first guess that
  gives the fist away, a reply that a first guess leads), weighted by how far the opponent's last revealed duel bears
  the model out (a bluff: weight 0, the plain equilibrium). The fist and the guess are drawn from that mix: it gains
  most against such guessers and stays safe against anyone. Actions are planned as at normal. (Against the normal
  player the plain equilibrium won 59 % of two-player games; the response wins far more, because the equilibrium
  leaves most of a duel's value to a guesser who gives its fist away.)

Autopilot: pawn placement and challenges at random (like the deadline defaults), the fist uniformly at random, and
otherwise the same guess and plan: a guess and planting give nothing away, and the deadline default for actions
(losing them) has no action of its own.
"""

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from engine.game import Game
from engine.kesse_ruegen import geometry, reading
from engine.kesse_ruegen.actions import Challenge, Choose, Evict, Guess, Move, Place, Plant, Reclaim
from engine.kesse_ruegen.duel import DuelStrategy, solve
from engine.kesse_ruegen.views import SeatView
from engine.levels import Level

FIST_WEIGHTS = (0.2, 0.3, 0.5)
"""The computer player's fist mix for 0, 1, 2 tubers (renormalised over what the supply allows)."""
MAX_TOTAL = 4
SHARP = 0.5
"""How much the second guesser trusts its model of the first guesser (the rest: a guess uniformly at random)."""


class KesseRuegenPolicy:
    """See the module docstring."""

    def __init__(self, game: Game | None = None, *, level: Level = "normal") -> None:  # type: ignore[type-arg]
        self.game = game
        self.level: Level = level

    def decide(
        self,
        view: BaseModel,
        legal: Sequence[Any],
        seat: int,
        rng: random.Random,
        *,
        autopilot: bool = False,
    ) -> Any | None:
        if not legal:
            return None
        assert isinstance(view, SeatView)
        first = legal[0]
        if isinstance(first, Place):
            return rng.choice(list(legal)) if autopilot else _place(view, legal, rng)
        if isinstance(first, Challenge):
            return rng.choice(list(legal)) if autopilot else _challenge(view, legal, rng, self.level != "easy")
        if isinstance(first, Choose):
            options = sorted(a.tubers for a in legal)
            if not autopilot and self.level == "hard":
                return Choose(tubers=_pick(_equilibrium(view, seat).fist(seat), options, rng))
            weights = [1.0] * len(options) if autopilot else [FIST_WEIGHTS[n] for n in options]
            return Choose(tubers=rng.choices(options, weights)[0])
        if isinstance(first, Guess):
            if not autopilot and self.level == "hard":
                return Guess(total=_pick(_equilibrium(view, seat).guess(seat), [a.total for a in legal], rng))
            return _guess(view, legal, seat, rng)
        return _act(view, legal, seat, rng)


# --- set-up and challenge ---------------------------------------------------------------------------------------


def _place(view: SeatView, legal: Sequence[Any], rng: random.Random) -> Any:
    """A field with many free neighbours, near the middle: room to plant and to move."""
    taken = {p for p in (pl.pawn for pl in view.players) if p is not None}
    centre = (view.size - 1) / 2

    def score(square: str) -> float:
        free = sum(1 for n in _neighbours(square, view.size) if n not in taken and n != view.barn)
        col, row = geometry.coords(square)
        return free - 0.3 * max(abs(col - centre), abs(row - centre)) + rng.random() * 0.1

    return max(legal, key=lambda a: score(a.square))


def _challenge(view: SeatView, legal: Sequence[Any], rng: random.Random, live: bool = True) -> Any:
    """The opponent with the fewest fields; `live` (normal and hard): first one whose fist may hold something when
    this seat's supply is empty — a duel of two empty fists totals 0 for ever, and a table of such duels never ends."""
    fields = {p.seat: p.fields for p in view.players}
    supply = {p.seat: p.supply for p in view.players}
    empty = live and supply[view.seat] == 0
    return min(legal, key=lambda a: (empty and supply[a.opponent] == 0, fields[a.opponent], rng.random()))


# --- guessing ---------------------------------------------------------------------------------------------------


def _fist_prior(supply: int) -> dict[int, float]:
    """What the opponent may hold, before any clue: each fist their supply allows, equally likely."""
    options = range(min(2, supply) + 1)
    return {n: 1 / len(options) for n in options}


Worth = Callable[[int, int], float]
"""(seat, total) → what naming that total right is worth to the seat (None in `_guess`: the total itself)."""


def _first_guess_weights(mine: int, prior: dict[int, float], worth: Callable[[int], float] = float) -> dict[int, float]:
    """How the first guesser picks among totals: probability × worth, squared (so mostly the best, not always)."""
    weights = {}
    for total in range(MAX_TOTAL + 1):
        p = prior.get(total - mine, 0.0)
        weights[total] = (p * max(0.0, worth(total))) ** 2
    return weights


def _guess(view: SeatView, legal: Sequence[Any], seat: int, rng: random.Random, worth: Worth | None = None) -> Any:
    duel = view.duel
    assert duel is not None and view.my_choice is not None
    mine = view.my_choice
    opponent = duel.challenged if seat == duel.challenger else duel.challenger
    prior = _fist_prior(view.players[opponent].supply)
    allowed = [a.total for a in legal]
    own: Callable[[int], float] = float if worth is None else (lambda t: worth(seat, t))
    if seat == duel.challenger or duel.challenger_guess is None:
        weights = _first_guess_weights(mine, prior, own)
        options = [t for t in allowed if weights.get(t, 0) > 0] or allowed
        pick = rng.choices(options, [weights.get(t, 0) or 1.0 for t in options])[0]
        return Guess(total=pick)
    # The second guess: update the prior on the opponent's fist by their guess, then name the best total left.
    said = duel.challenger_guess
    posterior: dict[int, float] = {}
    for theirs, p in prior.items():
        model = _first_guess_weights(theirs, _fist_prior(3))  # they don't know our supply use: assume a full fist
        norm = sum(model.values()) or 1.0
        likelihood = SHARP * model.get(said, 0.0) / norm + (1 - SHARP) / (MAX_TOTAL + 1)
        posterior[theirs] = p * likelihood
    best = max(allowed, key=lambda t: (posterior.get(t - mine, 0.0) * own(t), rng.random()))
    return Guess(total=best)


# --- the duel's worth and its equilibrium (normal and hard) -----------------------------------------------------

WIN_WORTH = 3000.0
"""What a win counts for in a duel's payoff (30 fields' worth of score: more than any plan of actions brings)."""


_VALUES: dict[tuple[Any, ...], list[float]] = {}
"""`_ActionValues` already computed, by the public facts they depend on."""


class _ActionValues:
    """What t actions (0–4) are worth to a duellist on this board: the planner's best score after them (public facts
    only: pawns, tubers, supplies), less its score now."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.cache: dict[int, list[float]] = {}

    def of(self, seat: int, total: int) -> float:
        return self.all(seat)[total]

    def all(self, seat: int) -> list[float]:
        found = self.cache.get(seat)
        if found is None:
            # Shared between calls (the fist and then the guess of a duel value the same board): a pure function
            # of the public facts in the key, so the cache changes no decision.
            v = self.view
            key = (
                v.size,
                v.win_fields,
                tuple(v.tubers.items()),
                tuple((p.pawn, p.supply, p.in_barn, p.fields, p.left) for p in v.players),
                seat,
            )
            found = _VALUES.get(key)
            if found is None:
                if len(_VALUES) >= 4096:
                    _VALUES.clear()
                found = _VALUES[key] = self._compute(seat)
            self.cache[seat] = found
        return found

    def _compute(self, seat: int) -> list[float]:
        me = self.view.players[seat]
        if me.pawn is None:
            return [float(t) for t in range(MAX_TOTAL + 1)]
        planner = _Planner(self.view, seat)
        board = _Board(me.pawn, frozenset(self.view.tubers.items()), me.supply, me.in_barn)
        now = planner.score(board)
        one, two = (min(WIN_WORTH, planner.value(board, t) - now) for t in (1, 2))
        # Three and four actions are searched no further (that costs a hundred times more): a turn is mostly
        # "move, plant" pairs, so they are worth one and two actions more, or a pair more — unless that many plants
        # reach the winning count, which is then counted as the win.
        values = [0.0, one, two, one + two, 2 * two]
        here_empty = me.pawn != self.view.barn and me.pawn not in self.view.tubers
        for t in (3, 4):
            plants = min(me.supply, (t + 1) // 2 if here_empty else t // 2)
            if me.fields + plants >= self.view.win_fields:
                values[t] = WIN_WORTH
        # At least the count itself: the planner's score can fall with any action (it weighs where pawns stand), and a
        # player who shuns actions never wins (tables of such players would not end).
        # Rounded: the same board gives the same payoffs whoever asks, so the duel's solution is shared (cached).
        return [float(round(min(WIN_WORTH, max(v, 10.0 * t)))) for t, v in enumerate(values)]


@dataclass(frozen=True)
class _Equilibrium:
    """The duel's equilibrium as a duellist sees it (see `engine.kesse_ruegen.duel`)."""

    view: SeatView
    strategy: DuelStrategy

    def fist(self, seat: int) -> dict[int, float]:
        duel = self.view.duel
        assert duel is not None
        return self.strategy.challenger_fist if seat == duel.challenger else self.strategy.challenged_fist

    def guess(self, seat: int) -> dict[int, float]:
        duel = self.view.duel
        assert duel is not None and self.view.my_choice is not None
        if seat == duel.challenger or duel.challenger_guess is None:
            return self.strategy.challenger_guess[self.view.my_choice]
        return self.strategy.challenged_guess[(self.view.my_choice, duel.challenger_guess)]


def _equilibrium(view: SeatView, seat: int) -> _Equilibrium:
    """Solve this duel from public facts (supplies and the board): the same solution at the fist and at the guess."""
    duel = view.duel
    assert duel is not None
    values = _ActionValues(view)
    fists = [tuple(range(min(2, view.players[s].supply) + 1)) for s in (duel.challenger, duel.challenged)]
    # The opponent is read as the sensible guesser of `reading`, as far as its last revealed duel bears that out
    # (rounded, so that nearby trusts share a cached solution).
    opponent = duel.challenged if seat == duel.challenger else duel.challenger
    supply = view.players[seat].supply
    weight = round(reading.trust(view.last_duel, opponent, supply), 1)
    them_first = opponent == duel.challenger
    model = reading.sensible(them_first, fists[0 if them_first else 1], supply, weight) if weight > 0 else None
    strategy = solve(fists[0], fists[1], values.all(duel.challenger), values.all(duel.challenged), model=model)
    return _Equilibrium(view, strategy)


def _pick(mix: dict[int, float], allowed: Sequence[int], rng: random.Random) -> int:
    """A choice drawn from `mix` among `allowed` (uniform if the mix gives them nothing)."""
    options = sorted(allowed)
    weights = [mix.get(o, 0.0) for o in options]
    if sum(weights) <= 0:
        weights = [1.0] * len(options)
    return rng.choices(options, weights)[0]


# --- actions ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Board:
    """The little of the game a plan needs, immutable so that positions can be merged."""

    pawn: str
    tubers: frozenset[tuple[str, int]]
    supply: int
    barn: int
    """The seat's own tubers in the barn."""


def _neighbours(square: str, size: int) -> list[str]:
    found = []
    for d in geometry.STEPS:
        n = geometry.neighbour(square, d, size)
        if n is not None:
            found.append(n)
    return found


class _Planner:
    """Searches every sequence of the remaining actions and scores where they lead."""

    def __init__(self, view: SeatView, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.size = view.size
        self.barn = view.barn
        self.others = {p.pawn for p in view.players if p.seat != seat and p.pawn is not None and p.pawn != view.barn}
        self.opponents = [p for p in view.players if p.seat != seat and not p.left]
        self.opponent_pawns = [p.pawn for p in self.opponents if p.pawn is not None]
        self.neighbours = {sq: _neighbours(sq, self.size) for sq in geometry.squares(self.size)}
        self.memo: dict[tuple[_Board, int], float] = {}

    def actions(self, b: _Board) -> list[tuple[Any, _Board]]:
        tubers = dict(b.tubers)
        found: list[tuple[Any, _Board]] = []
        here = tubers.get(b.pawn)
        if b.pawn != self.barn:
            if here is None and b.supply > 0:
                tubers[b.pawn] = self.seat
                found.append((Plant(), _Board(b.pawn, frozenset(tubers.items()), b.supply - 1, b.barn)))
                del tubers[b.pawn]
            elif here is not None and here != self.seat:
                del tubers[b.pawn]
                found.append((Evict(), _Board(b.pawn, frozenset(tubers.items()), b.supply, b.barn)))
                tubers[b.pawn] = here
        elif b.barn > 0:
            found.append((Reclaim(), _Board(b.pawn, b.tubers, b.supply + 1, b.barn - 1)))
        for d in geometry.STEPS:
            target = geometry.neighbour(b.pawn, d, self.size)
            if target is None or (target != self.barn and target in self.others):
                continue
            found.append((Move(direction=d), _Board(target, b.tubers, b.supply, b.barn)))
        return found

    def value(self, b: _Board, left: int) -> float:
        """The best score reachable with `left` actions (all of them must be taken)."""
        key = (b, left)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        mine = sum(1 for _, s in b.tubers if s == self.seat)
        if mine >= self.view.win_fields:
            result = 1e6 + left  # a win now; sooner is better
        elif left == 0:
            result = self.score(b)
        else:
            steps = self.actions(b)
            result = max((self.value(nb, left - 1) for _, nb in steps), default=self.score(b))
        self.memo[key] = result
        return result

    def score(self, b: _Board) -> float:
        tubers = dict(b.tubers)
        counts: dict[int, int] = {}
        for s in tubers.values():
            counts[s] = counts.get(s, 0) + 1
        mine = counts.get(self.seat, 0)
        theirs = sorted((counts.get(p.seat, 0) for p in self.opponents), reverse=True)
        total = 100.0 * mine
        for i, n in enumerate(theirs):
            total -= (80.0 if i == 0 else 50.0) * n
        # Tubers to plant: plenty matters little, none left matters a lot (then reclaim).
        need = self.view.win_fields - mine
        total += 12.0 * min(b.supply, 2) + 2.0 * min(b.supply, need) - 4.0 * b.barn
        # Where the pawn stands for the next turn: on an empty field, or close to one (or to a rival tuber).
        empty = [
            sq
            for sq in self.neighbours
            if sq != self.barn and sq not in tubers and (sq == b.pawn or sq not in self.others)
        ]
        if b.supply > 0:
            if b.pawn in empty:
                total += 25.0
            else:
                total -= 8.0 * min((_distance(b.pawn, sq) for sq in empty), default=4)
        elif b.barn > 0:
            total -= 8.0 * _distance(b.pawn, self.barn)
        rivals = [sq for sq, s in tubers.items() if s != self.seat]
        if rivals:
            total -= 2.0 * min(_distance(b.pawn, sq) for sq in rivals)
        if tubers.get(b.pawn) == self.seat:
            total += 4.0  # a pawn on its own tuber shields it from eviction
        # Empty fields next to an opponent's pawn are where they plant next: taking them blocks.
        for pawn in self.opponent_pawns:
            around = [pawn, *self.neighbours[pawn]] if pawn != self.barn else self.neighbours[pawn]
            total -= 3.0 * sum(1 for sq in around if sq != self.barn and sq not in tubers)
        return total


@lru_cache(maxsize=4096)
def _distance(a: str, b: str) -> int:
    ac, ar = geometry.coords(a)
    bc, br = geometry.coords(b)
    return max(abs(ac - bc), abs(ar - br))


def _act(view: SeatView, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
    me = view.players[seat]
    assert me.pawn is not None
    planner = _Planner(view, seat)
    board = _Board(me.pawn, frozenset(view.tubers.items()), me.supply, me.in_barn)
    left = max(1, view.actions_left)
    options = {repr(a): nb for a, nb in planner.actions(board)}
    best = None
    best_value = float("-inf")
    for action in legal:
        nb = options.get(repr(action))
        if nb is None:
            continue
        v = planner.value(nb, left - 1) + rng.random() * 1e-3
        if v > best_value:
            best, best_value = action, v
    return best if best is not None else rng.choice(list(legal))
