"""Casablanca's computer player and autopilot: one decision from the seat's own view and its legal moves.

The computer player (`autopilot=False`) judges a position by a potential: for every agent still in the game, how many
moves it is from ending the game (carrying the suitcase into its own HQ, main game; into an HQ's owner's, variant) and
whether that end would be good for this seat. In the main game "good" is a guess at whether this seat is the richest
on the agent: its own bribe against an estimate of the best opponent's (what the claims of the last auction showed,
else a share of what this seat has spent itself, since everyone bribes about as often). On its turn it announces the
move or hit that raises the potential most, or bribes the agent where money adds most; it objects (and contests) only
when the announcement costs it, with a limit that grows with the harm, never more than its bribe.

The autopilot (`autopilot=True`) keeps an absent seat going safely: no objection ever, withdraw when objected to (a
contest would show its bribes), no hit (it costs $1,000 and shows every bribe on the victim), ending the turn when an
objection stopped it, and a first turn's bribe of $100 on three agents drawn at random (the deadline's default).
Otherwise it plays its turn as the computer player does, but without blocking anyone (it only brings its own end
nearer) and always by the late rules below, so that a table of autopilots ends.

Late in a game (the computer player after `PATIENCE` announcements, the autopilot at once) two rules stop players
who undo each other's moves from playing for ever (seen in self-play: computer players pulling the suitcase one step
towards their own ends in turn, a whole game long, in the variant most of all):
- a seat whose own end is further away than another's *yields*: it moves the suitcase (or its carrier) only when
  that brings the nearest end of the game nearer, and never hits (`_yields`, `_undoes`); the seat nearest to an end,
  left alone, then reaches it;
- any end becomes welcome, more and more over the next `PATIENCE` announcements (`ending`): when every seat thinks the
  nearest end is someone else's, nobody would push it otherwise. The announcement counter is public (in the view).

Levels (`level`; the autopilot is the same at every level):
- easy: the player above, as issue 16 left it (59 % of four-seat games against three random players).
- normal, main game: it also keeps its backed agent out of company (`EXPOSURE` per other agent in its building):
  against random players most games were lost to one hit, the whole stake gone at once. It moves away, hits or
  objects to company. Fleeing each other's company, tables of such players chased each other's agents for ever
  (past 20,000 actions), so the term fades with the announcements like blocking does (`PATIENCE`): late in a game
  it plays as easy, and the late rules end the table. And it is *sharp* (`_Player.sharp`): its first turn bribes
  the least ($100 on three agents, `HARD_FIRST_BRIBE`: easy players backing the same agent end with the same money
  on it, a shared win, and the money kept outbids them), it objects from a smaller harm (`HARD_HARM`: a lost
  objection costs nothing in the main game) and always claims up to its whole bribe. In the variant normal plays as
  easy.
- hard: normal, and sharp in the variant too. In the main game it is a best response to normal's habits
  (`_Player.hard`, `_Player._normal_backing`). Normal players back the nearest agent of the nearest trio they
  bribed first, the first of equals, so some agents are backed by several of them (a shared win is a fraction of one)
  and some by none: hard's first bribe and its backed agent go where normal players least often go. Then they end
  with all their money on that agent and at most their first $100 on two others, and block each other by moving
  agents they have (next to) nothing on; so hard, once its backed agent has `VETO_AFTER`, puts `VETO` on every other
  agent: its objections then stop those moves, and their objections to its own moves with those agents fail.
  And it races with more than one agent (`_Player.spare`): every first turn is played before any move, on the board
  as set up, where normal players never back some agents (Yellow and Grey on the default map: no trio's first agent);
  whichever of those ends the game, hard's `VETO` on it is the most money there, so it counts the end of each of them
  (on which it has `VETO`) as its own, brings the nearest home, and no longer blocks them.
  Tried and dropped: more or less `EXPOSURE` (13–16 % of 40 games), a bonus for hitting other agents (15.6 % of 40:
  the $1,000 weakens the backed agent, and it often hits nobody's), objecting from any harm (21.2 % of 40), and more
  patience than normal (its blocking fading over 300 announcements instead of 200: with `VETO`, before the choice of
  agent, 24.8 % of 200, and tables of hard players up to 4,874 actions at eight seats); with the spare agents, a bonus
  for hitting an agent that is neither its own nor spare (63.3 % of 60 against 60.4 % without: within the noise, so
  left out).
Measured (4 seats; `benchmarks/bots.py --levels --game casablanca --games 200`, seeds 1…): session 38, hard vs
normal 36.9 % (95 % CI 30.5–43.8 %; it was 23.3 % as normal's equal), normal vs easy 41.0 %, normal vs random
87.5 %; session 39, with the spare agents, hard vs normal 44.4 % (95 % CI 37.7–51.3 %), and on seeds it was never
tuned on (`--seed 70001 --games 400`) 52.9 % (the spare agents were chosen on 60 games of seeds 3000…: 60.4 %
against 46.2 % without). The HQ variant plays as before (the spare agents are a main-game matter).

Reads only the `SeatView` and the legal list (never the state); deterministic for a given `rng`.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from engine.casablanca.actions import (
    Bribe,
    ChooseHq,
    Contest,
    EndTurn,
    Hit,
    Move,
    NoObjection,
    Object,
    Withdraw,
)
from engine.casablanca.state import HIT_COST, Announcement
from engine.casablanca.views import SeatView
from engine.game import Game
from engine.levels import Level

DECAY = 0.6
"""First turn: how much less an agent one move further from ending the game is worth bribing."""
END = 100.0
"""The score of a game that has ended (won: +END, lost: -END)."""
HORIZON = 8
"""Moves beyond which an end is as good as far away."""
NEAR = 0.5
SCALE = 10.0
"""An end `d` moves away weighs SCALE * NEAR**d: the next moves decide, the far future is noise."""
THREAT_WEIGHT = 0.8
"""Keeping the others' end one move further away, against bringing one's own one move nearer."""
PATIENCE = 200
"""Announcements over which blocking the others' ends weighs less and less, to nothing; then the late rules apply
(see the module docstring), and any end becomes fully welcome after as many again. Self-play games against random
players mostly end well before (200 rather than 300 changed the win rate against them within its noise, and ends a
table of computer players in fewer actions)."""
GOOD_MOVE = 0.5
"""A move worth a turn that could bribe instead gains at least this much score."""
HARM = 0.8
"""An announcement that costs at least this much score is objected to (with the whole bribe from twice this)."""
FIRST_BRIBE = 1_000
"""The first turn's bribe on each of three agents: enough to object with, leaving most to concentrate later."""
STAKE = 6_000
"""Main game: the money on the backed agent before moves come first (unless an end is near)."""
VARIANT_STAKE = 2_000
"""Variant: the money on the agent nearest the suitcase before moves come first (to win its auctions)."""
OPPONENT_SHARE = 0.5
"""The guess at the best opponent's money on an agent, as a share of this seat's own spending (with no better clue)."""
CARRIER_PENALTY = 3
"""Main game: moves still missing when the suitcase hasn't had its second carrier yet (a hand-over and back)."""
HARD_FIRST_BRIBE = 100
"""Sharp players (`_Player.sharp`): the first turn's bribe on each of three agents: the least. Easy players backing
the same agent end with the same money on it ($1,000 first, then all they have: a shared win); $9,700 kept can
outbid them all."""
HARD_HARM = 0.3
"""Sharp players, main game: the harm that is objected to (a lost objection costs nothing there; only what the claims
show)."""
EXPOSURE = 0.9
"""Normal and hard, main game: the score lost per other agent in the backed agent's building (a hit risk), early in
the game; it fades with `caution` (see `_Player.exposure`). Measured (40 games a side, session 37): at 1.5 normal won
11.5 % against three easy players (fleeing company costs the moves easy players spend on their ends); at 0.9 37.5 %
(and 87.5 % against random); 0.45 and 0 lost to 0.9 head-to-head (12.9 %, 16.0 %)."""

VETO = 200
"""Hard, main game: the money it puts on every agent besides its backed one: more than a normal player's first-turn
$100, so that its objections stop their moves of those agents and their objections fail against its own (a tie goes
to the active player). Measured (hard vs three normal, 200 games, seeds 1…): 36.9 % with it, 24.1 % without (both
backing where normal players seldom do; neither: 23.3 %); $300 35.7 %, from $1,000 on the backed agent 36.9 %."""
VETO_AFTER = 2_000
"""Hard, main game: the money on its backed agent before it spreads `VETO`."""


@dataclass
class Board:
    """The bits of a position the potential depends on: a view, or a view with an announcement carried out."""

    at: dict[int, str]
    carrier: int | None
    suitcase: str
    carried: set[int]
    bribes: dict[int, int] = field(default_factory=dict)


class CasablancaPolicy:
    """See the module docstring."""

    def __init__(self, game: Game, *, level: Level = "normal") -> None:  # type: ignore[type-arg]
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
        if not legal or not isinstance(view, SeatView) or view.phase == "over":
            return None
        if autopilot:
            return _autopilot(view, legal, seat, rng)
        return _Player(view, seat, rng, level=self.level).decide(legal)


# --- the autopilot ------------------------------------------------------------------------------------------------


def _autopilot(view: SeatView, legal: Sequence[Any], seat: int, rng: random.Random) -> Any | None:
    kinds = {type(a) for a in legal}
    if ChooseHq in kinds:
        return rng.choice([a for a in legal if isinstance(a, ChooseHq)])
    if NoObjection in kinds:
        return NoObjection()
    if Withdraw in kinds:
        return Withdraw()
    if view.phase != "turn" or view.turn != seat:
        return None  # a queued objector changing its limit: the autopilot never objects, so never here
    if EndTurn in kinds:
        return EndTurn()  # an objection stopped its announcement: the turn is over
    if view.first_turn:  # the deadline's default, early: the smallest bribe on three agents drawn at random
        small = [a for a in legal if isinstance(a, Bribe) and max(a.amounts.values()) == min(_bribe_sizes(legal))]
        if small:
            return rng.choice(small)
    quiet = [a for a in legal if not isinstance(a, Hit)]  # a hit costs $1,000 and shows every bribe on its victim
    return _Player(view, seat, rng, autopilot=True).decide(quiet or legal)


def _bribe_sizes(legal: Sequence[Any]) -> list[int]:
    return [v for a in legal if isinstance(a, Bribe) for v in a.amounts.values()] or [0]


def _moves_suitcase(view: SeatView, move: Move) -> bool:
    """The move takes the carrier away (leaving the suitcase behind is a change too: keep it where it is)."""
    return view.carrier is not None and view.agents[view.carrier].colour == move.agent


# --- the computer player ------------------------------------------------------------------------------------------


class _Player:
    """One decision of the computer player; the position's facts are worked out once."""

    def __init__(
        self, view: SeatView, seat: int, rng: random.Random, *, autopilot: bool = False, level: Level = "easy"
    ) -> None:
        self.view = view
        self.level: Level = level
        # The money and objection habits that beat easy players: hard's everywhere, normal's in the main game (in the
        # variant normal plays as easy, which wins 97–98 % against random there).
        self.sharp = level == "hard" or (level == "normal" and not view.variant)
        # Hard's best response to normal players (main game only): where it backs, and veto money on every agent.
        self.hard = level == "hard" and not view.variant and not autopilot
        self.seat = seat
        self.rng = rng
        self.colour = {a.colour: a.index for a in view.agents}
        self.dist = _all_distances(view.streets)
        self.alive = [a.index for a in view.agents if a.at is not None]
        self.my_hq = next((p.hq for p in view.players if p.seat == seat), None)
        self.owners = {p.hq: p.seat for p in view.players if p.hq is not None and not p.left}
        self.guess = self._opponent_guess()
        # Hard, main game: the agents normal players never back (see `_spare`): with `VETO` on one, its end is a win.
        self.spare = self._spare() if self.hard else frozenset()
        self.board = Board(
            at={a.index: a.at for a in view.agents if a.at is not None},
            carrier=view.carrier,
            suitcase=view.suitcase_at,
            carried={a.index for a in view.agents if a.carried},
            bribes={a: view.bribes[a] for a in self.alive},
        )
        self.backed = self._backed(self.board)
        # Blocking the others' ends weighs less as the game drags on: players who only undo each other's moves
        # (computer players among themselves) would never finish; pushing one's own end does.
        played = view.last_announcement.no if view.last_announcement is not None else 0
        self.caution = 0.0 if autopilot else THREAT_WEIGHT * max(0.0, 1 - played / PATIENCE)
        self.late = autopilot or played >= PATIENCE
        # Normal and hard keep the backed agent out of company (a hit there loses the biggest stake at once), but
        # less and less as the game drags on, like blocking: agents that flee each other's company would otherwise
        # chase one another round the map for ever (seen: tables of them past 20,000 actions).
        fade = max(0.0, 1 - played / PATIENCE)
        self.exposure = 0.0 if autopilot or level == "easy" or view.variant else EXPOSURE * fade
        # Later still, any end becomes welcome: when every seat's own end is further than someone else's, the
        # seats would all leave the suitcase alone (`_yields`) and the game would stand still.
        self.ending = min(1.0, max(0.0, played / PATIENCE - (0 if autopilot else 1)))
        self.now = self.score(self.board)

    # decisions

    def decide(self, legal: Sequence[Any]) -> Any | None:
        view = self.view
        if any(isinstance(a, ChooseHq) for a in legal):
            return self._choose_hq([a for a in legal if isinstance(a, ChooseHq)])
        if view.phase == "objections":
            return self._object(legal)
        if view.phase == "contest":
            ann = view.announcement
            if ann is None or ann.seat != self.seat:
                return None  # queued behind another objector: the limit given stands
            return self._contest(legal, ann)
        if view.phase == "turn" and view.turn == self.seat:
            return self._turn(legal)
        return None

    def _choose_hq(self, options: list[ChooseHq]) -> ChooseHq:
        # The HQ nearest the suitcase: the fewest moves to bring it home.
        return min(options, key=lambda a: (self.dist[self.view.suitcase_at][a.hq], self.rng.random()))

    def _turn(self, legal: Sequence[Any]) -> Any:
        bribes = [a for a in legal if isinstance(a, Bribe)]
        if self.view.first_turn:
            return self._first_bribe(bribes)
        stopped = self._stopped_agent()
        yielding = self._yields()
        deeds = [
            (self._deed_value(a), self.rng.random(), a)
            for a in legal
            if isinstance(a, Move | Hit) and self.colour[a.agent] != stopped and not (yielding and self._undoes(a))
        ]
        best = max(deeds, key=lambda t: (t[0], t[1]), default=None)
        gain = best[0] if best is not None else float("-inf")
        if gain >= END / 2:
            return best[2] if best is not None else None  # it ends the game in this seat's favour
        veto = self._veto_bribe(bribes) if self.hard else None
        if veto is not None:
            return veto
        bribe = self._bribe(bribes)
        if bribe is not None and (gain < GOOD_MOVE or self._underfunded()):
            return bribe
        if best is not None and (gain > 0 or not any(isinstance(a, EndTurn) for a in legal)):
            return best[2]
        return next((a for a in legal if isinstance(a, EndTurn)), None) or bribe or self.rng.choice(list(legal))

    def _yields(self) -> bool:
        """Late in the game (the autopilot: always), a seat whose own end is further away than another's leaves the
        suitcase alone: players who each pull it one step towards their own end undo each other for ever (the
        variant's tug of war), while the one nearest to an end, left alone, brings the game to it."""
        return self.late and self._mine_end(self.board) > self._threat(self.board)

    def _nearest_end(self, board: "Board | _Ended") -> int:
        return 0 if isinstance(board, _Ended) else min(self._mine_end(board), self._threat(board))

    def _undoes(self, deed: Move | Hit) -> bool:
        """The deed hits, or moves the suitcase without bringing the nearest end of the game nearer (one that only
        swaps which end is nearest would start the tug of war again)."""
        if isinstance(deed, Move) and not deed.suitcase and not _moves_suitcase(self.view, deed):
            return False
        after = self._after(self._announcement(deed))
        return isinstance(deed, Hit) or self._nearest_end(after) >= self._nearest_end(self.board)

    def _stopped_agent(self) -> int | None:
        """The agent whose announcement an objection just stopped this turn: its objector would stop the next one
        too (they showed more money on it), so this turn tries another agent or ends."""
        last = self.view.last_announcement
        if self.view.objected and last is not None and last.seat == self.seat and self.view.verdict == "stopped":
            return last.agent
        return None

    def _underfunded(self) -> bool:
        """Money still matters more than a move: too little on the backed agent, and no end is near."""
        if self.backed is None:
            return True
        if self.view.variant:
            return self.view.bribes[self.backed] < VARIANT_STAKE and self._threat(self.board) >= 3
        return self.view.bribes[self.backed] < STAKE and self._threat(self.board) >= 3

    def _first_bribe(self, bribes: list[Bribe]) -> Bribe:
        """Three agents near the suitcase, about $1,000 each (the samples' amount nearest to it)."""
        assert bribes, "a first turn always offers a bribe"
        first = HARD_FIRST_BRIBE if self.sharp else FIRST_BRIBE
        size = max(min(bribes, key=lambda b: abs(max(b.amounts.values()) - first)).amounts.values())
        same = [b for b in bribes if max(b.amounts.values()) == size]

        def promise(b: Bribe) -> float:
            near = sum(DECAY ** self._finish(self.board, self.colour[c]) for c in b.amounts)
            return near + self.rng.random() * 0.01

        if self.hard:  # of the nearest trios, one whose agent it will back normal players least often back
            odds = self._normal_backing(self.board)

            def alone(b: Bribe) -> tuple[float, float]:
                trio = [self.colour[c] for c in b.amounts]
                near = sum(DECAY ** self._finish(self.board, a) for a in trio)
                board = Board(
                    self.board.at, self.board.carrier, self.board.suitcase, self.board.carried, {a: 1 for a in trio}
                )
                backed = self._backed(board)
                return (round(near, 2), -odds.get(backed, 0.0) if backed is not None else 0.0)

            top = max(alone(b) for b in same)
            same = [b for b in same if alone(b) == top]
        return max(same, key=promise)

    def _veto_bribe(self, bribes: list[Bribe]) -> Bribe | None:
        """Hard, main game: $100 on the agent (other than the backed one) with least on it, until every agent has
        `VETO` on it. Anyone may move any agent, and the players it is up against move agents they have at most their
        first $100 on, to block; with more on that agent, an objection stops the move (their claims stop at their
        bribe). Once the backed agent has `VETO_AFTER`, so that the first auctions about it are not lost."""
        if self.backed is None or self.view.bribes[self.backed] < VETO_AFTER:
            return None
        short = [a for a in self.alive if a != self.backed and self.view.bribes[a] < VETO]
        if not short:
            return None
        target = min(short, key=lambda a: (self.view.bribes[a], self._finish(self.board, a), a))
        on = [b for b in bribes if self.colour[next(iter(b.amounts))] == target and sum(b.amounts.values()) == 100]
        return on[0] if on else None

    def _bribe(self, bribes: list[Bribe]) -> Bribe | None:
        """The biggest sample on the agent this seat backs (variant: the agent nearest the suitcase)."""
        if not bribes:
            return None
        target = self.backed
        if self.view.variant:
            case = self.board.suitcase
            target = min(self.alive, key=lambda a: (self.dist[self.board.at[a]][case], -self.view.bribes[a]))
        on = [b for b in bribes if target is not None and self.colour[next(iter(b.amounts))] == target]
        return max(on or bribes, key=lambda b: (sum(b.amounts.values()), self.rng.random()))

    def _deed_value(self, deed: Move | Hit) -> float:
        value = self.score(self._after(self._announcement(deed))) - self.now
        if isinstance(deed, Hit):
            value -= 0.3  # $1,000 of the hitter's bribe, and a hit shows everyone's bribes on the victim
        return value

    def _object(self, legal: Sequence[Any]) -> Any:
        ann = self.view.announcement
        limits = sorted(a.limit for a in legal if isinstance(a, Object))
        if ann is None or not limits:
            return NoObjection()
        harm = self.now - self.score(self._after(ann))
        mine = self.view.bribes[ann.agent]
        if harm < (HARD_HARM if self.sharp and not self.view.variant else HARM) or mine == 0:
            return NoObjection()  # a bluff with nothing on the agent fails at once
        if self.view.variant and harm < END / 2 and mine < HIT_COST:
            return NoObjection()  # a lost objection costs the next turn: only with a real chance of winning
        wanted = mine if harm >= 2 * HARM or self.sharp else mine // 2
        return Object(limit=max(v for v in limits if v <= wanted))

    def _contest(self, legal: Sequence[Any], ann: Announcement) -> Any:
        limits = sorted(a.limit for a in legal if isinstance(a, Contest))
        gain = self.score(self._after(ann)) - self.now
        if not limits or gain <= 0:
            return Withdraw()
        mine = self.view.bribes[ann.agent]
        wanted = mine if gain >= HARM or self.sharp else mine // 2
        return Contest(limit=max(v for v in limits if v <= wanted))

    # judging a position

    def score(self, board: "Board | _Ended") -> float:
        """How good a position is for this seat: its own end near (a move from it is worth much more than one far
        away), the others' ends far."""
        if isinstance(board, _Ended):
            return END if board.won else -END * (1 - self.ending) + SCALE * self.ending
        threat = self._threat(board)
        mine = self._mine_end(board)
        value = SCALE * (NEAR ** min(mine, HORIZON) - self.caution * NEAR ** min(threat, HORIZON))
        if self.exposure:
            value -= self.exposure * self._exposed(board)
        if self.ending:
            value += SCALE * self.ending * NEAR ** min(mine, threat, HORIZON)
        return value

    def _exposed(self, board: Board) -> int:
        """Main game: how many other agents share the backed agent's building (at most two). Any of them can hit it
        on any opponent's turn, and then this seat's biggest stake is lost at once (seen against random players:
        most games lost were lost that way)."""
        backed = self._backed(board)
        if backed is None:
            return 0
        here = board.at[backed]
        return min(2, sum(1 for a, where in board.at.items() if a != backed and where == here))

    def _mine_end(self, board: Board) -> int:
        """Moves until the game could end in this seat's favour."""
        if self.view.variant:
            return self._finish_at(board, self.my_hq) if self.my_hq is not None else HORIZON
        backed = self._backed(board)
        ends = [self._finish(board, backed)] if backed is not None else []
        ends += [self._finish(board, a) for a in self.spare if a in board.at and self._mine(board, a)]
        return min(ends, default=HORIZON)

    def _threat(self, board: Board) -> int:
        """Moves until the game could end against this seat."""
        if self.view.variant:
            ends = [self._finish_at(board, hq) for hq, owner in self.owners.items() if owner != self.seat]
        else:
            ends = [self._finish(board, a) for a in board.at if not self._mine(board, a)]
        return min(ends, default=HORIZON)

    def _backed(self, board: Board) -> int | None:
        """Main game: the agent this seat has most on (ties: the one nearest to ending the game)."""
        top = max((board.bribes.get(a, 0) for a in board.at), default=0)
        if top <= 0:
            return None
        tied = [a for a in board.at if board.bribes.get(a, 0) == top]
        if len(tied) == 1:  # the distances only for a tie: a decision judges many boards
            return tied[0]
        if self.hard:  # ties: the agent normal players least often back (a shared win is a fraction of one)
            odds = self._normal_backing(board)
            return max(tied, key=lambda a: (-self._finish(board, a), -odds.get(a, 0.0), a))
        return max(tied, key=lambda a: (-self._finish(board, a), -a))

    def _normal_backing(self, board: Board) -> dict[int, float]:
        """How often a normal player backs each agent, from its habits: its first turn puts $100 on the three
        consecutive agents nearest to ending the game (its noise decides between equally near trios), and it then
        backs the nearest of them, the first one on a tie."""
        alive = sorted(board.at)
        trios = [[alive[(i + k) % len(alive)] for k in range(min(3, len(alive)))] for i in range(len(alive))]
        near = [sum(DECAY ** self._finish(board, a) for a in trio) for trio in trios]
        best = [t for t, v in zip(trios, near, strict=True) if v >= max(near) - 0.01]
        odds: dict[int, float] = {}
        for trio in best:
            backed = max(trio, key=lambda a: (-self._finish(board, a), -a))
            odds[backed] = odds.get(backed, 0.0) + 1 / len(best)
        return odds

    def _mine(self, board: Board, agent: int) -> bool:
        """This seat would (most likely) be the richest on `agent` if it ended the game."""
        mine = board.bribes.get(agent, 0)
        return mine > self.guess.get(agent, 0) or (agent in self.spare and mine >= VETO)

    def _spare(self) -> frozenset[int]:
        """Hard, main game: the agents normal players never back. Every first turn is played before any move, so
        they all choose their trio and then their agent on the board as it was set up (every agent at home, the
        suitcase in the Bazaar): `_normal_backing` on that board. The same for every decision of a game (cached)."""
        streets = tuple((here, tuple(there)) for here, there in self.view.streets.items())
        key = (self.view.bazaar, tuple(a.home for a in self.view.agents), streets)
        found = _SPARE.get(key)
        if found is None:
            start = Board(
                at={a.index: a.home for a in self.view.agents}, carrier=None, suitcase=self.view.bazaar, carried=set()
            )
            odds = self._normal_backing(start)
            found = _SPARE[key] = frozenset(a for a in start.at if odds.get(a, 0.0) == 0.0)
        return found

    def _opponent_guess(self) -> dict[int, int]:
        """The best opponent's money on each agent, guessed: what the last auction's claims showed, at least a
        share of this seat's own spending (everyone bribes about as often)."""
        base = int(sum(self.view.bribes) * OPPONENT_SHARE)
        guess = dict.fromkeys(self.alive, base)
        ann = self.view.last_announcement
        if ann is not None and ann.agent in guess:
            for auction in self.view.auctions:
                for who, _, amount in auction.claims(ann.seat):
                    if who != self.seat:
                        guess[ann.agent] = max(guess[ann.agent], amount)
        return guess

    def _finish(self, board: Board, agent: int) -> int:
        """Main game: moves until `agent` could carry the suitcase into its own HQ (ending the game)."""
        home = self.view.agents[agent].home
        where = board.at[agent]
        if board.carrier == agent:
            steps = self.dist[where][home] or 2
        else:
            steps = max(1, self.dist[where][board.suitcase]) + (self.dist[board.suitcase][home] or 2)
        return steps + (CARRIER_PENALTY if len(board.carried | {agent}) < 2 else 0)

    def _finish_at(self, board: Board, hq: str) -> int:
        """Variant: moves until some agent could carry the suitcase into `hq`."""
        case = board.suitcase
        into = self.dist[case][hq] or 2
        if board.carrier is not None:
            return into
        return min((max(1, self.dist[w][case]) for w in board.at.values()), default=HORIZON) + into

    def _announcement(self, deed: Move | Hit) -> Announcement:
        agent = self.colour[deed.agent]
        source = self.board.at[agent]
        if isinstance(deed, Move):
            return Announcement(
                no=0, kind="move", seat=self.seat, agent=agent, source=source, to=deed.to, suitcase=deed.suitcase
            )
        victim = self.colour[deed.victim]
        return Announcement(no=0, kind="hit", seat=self.seat, agent=agent, source=source, victim=victim)

    def _after(self, ann: Announcement) -> "Board | _Ended":
        """The position once `ann` took effect (an end of the game as such)."""
        b = self.board
        board = Board(dict(b.at), b.carrier, b.suitcase, set(b.carried), dict(b.bribes))
        if ann.kind == "hit":
            assert ann.victim is not None
            board.at.pop(ann.victim, None)
            board.bribes.pop(ann.victim, None)
            if ann.seat == self.seat:
                board.bribes[ann.agent] -= HIT_COST
            if board.carrier == ann.victim:
                board.carrier = None
            return board
        assert ann.to is not None
        board.at[ann.agent] = ann.to
        if ann.suitcase:
            board.carrier = ann.agent
            board.carried.add(ann.agent)
        elif board.carrier == ann.agent:
            board.carrier = None
        if board.carrier is not None:
            board.suitcase = board.at[board.carrier]
        if board.carrier == ann.agent:
            return self._ending(board, ann) or board
        return board

    def _ending(self, board: Board, ann: Announcement) -> "_Ended | None":
        assert ann.to is not None
        if self.view.variant:
            owner = self.owners.get(ann.to)
            return _Ended(won=owner == self.seat) if owner is not None and owner == ann.seat else None
        if ann.to != self.view.agents[ann.agent].home or len(board.carried) < 2:
            return None
        return _Ended(won=self._mine(board, ann.agent))


@dataclass(frozen=True)
class _Ended:
    """A position where the game is over: its score is ±END."""

    won: bool


_SPARE: dict[tuple[str, tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]], frozenset[int]] = {}
"""The agents normal players never back, per map and agents (see `_Player._spare`)."""

_DISTANCES: dict[tuple[tuple[str, tuple[str, ...]], ...], dict[str, dict[str, int]]] = {}
"""The distances of each map seen (a map is fixed for a game; working them out at every decision cost a third of
a decision's time)."""


def _all_distances(streets: dict[str, list[str]]) -> dict[str, dict[str, int]]:
    key = tuple((here, tuple(there)) for here, there in streets.items())
    found = _DISTANCES.get(key)
    if found is None:
        found = _DISTANCES[key] = _distances(streets)
    return found


def _distances(streets: dict[str, list[str]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for start in streets:
        dist = {start: 0}
        todo = [start]
        for here in todo:
            for nxt in streets[here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    todo.append(nxt)
        out[start] = dist
    return out
