"""Bribes worth suggesting to a player (`/game move`, `/cb bribe`), worked out from their own sheet and the public
map only — never from anyone else's secrets, so the suggestions give nothing away.

The engine's legal list only samples bribes (the same sum on three agents, or on one): a player typing on a phone
wants a few sensible, unequal choices instead, in words. Which agents matter:

- main game: the agents nearest to carrying the suitcase into their own HQ (the moves it would take, as the computer
  player counts them: to the suitcase, then home; a carrier goes straight home; the suitcase must have had two
  carriers), and the agent the player already has most on (money on one agent wins its auctions and the game);
- variant: the agents nearest the suitcase (whoever carries it decides whose HQ it reaches, and the auctions about
  its moves are won with money on it), and again the player's own favourite.

The sums follow what the computer player pays: about $1,000 a head on a first turn (at least three agents, more on
the front-runner), a stake of several thousand on the agent it backs. Every choice fits the capital left, in $100
steps; the engine still checks each one when it is made.
"""

from collections import deque
from dataclasses import dataclass

from bot.post import cut
from engine.casablanca.state import STEP
from engine.casablanca.views import SeatView

from .i18n import N_, _
from .maptext import colour_word, money

MAX_IDEAS = 5
CARRIER_PENALTY = 3
"""Moves counted extra while the suitcase still needs its second carrier (as the computer player counts)."""


@dataclass(frozen=True)
class Idea:
    amounts: dict[str, int]
    """Agent colour → dollars, in the order said."""
    why: str
    """In a few words, why these agents (in the language being spoken)."""

    @property
    def text(self) -> str:
        """As `/cb bribe amounts:` reads it: "red 1500, blue 1000, white 500" (the colours in the language being
        spoken: the command reads them back)."""
        return ", ".join(f"{colour_word(colour)} {amount}" for colour, amount in self.amounts.items())

    @property
    def label(self) -> str:
        """As a suggestion reads: "Bribe red $1,500, blue $1,000, white $500 — nearest to winning first"."""
        spent = ", ".join(f"{colour_word(colour)} {money(amount)}" for colour, amount in self.amounts.items())
        return cut(_("Bribe %(amounts)s — %(why)s", amounts=spent, why=self.why), 100)


MAIN_WHY = (
    N_("the agent closest to winning"),
    N_("a little on the agent closest to winning"),
    N_("the next closest to winning"),
)
"""Main game: the agents the fewest moves from carrying the suitcase into their own HQ."""
VARIANT_WHY = (
    N_("the agent nearest the suitcase"),
    N_("a little on the agent nearest the suitcase"),
    N_("the next nearest the suitcase"),
)
"""Variant: the agents nearest the suitcase."""


def distances(streets: dict[str, list[str]], start: str) -> dict[str, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in streets[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


def _moves_to_win(view: SeatView, agent: int) -> int:
    """Main game: moves until `agent` could carry the suitcase into its own HQ."""
    a = view.agents[agent]
    assert a.at is not None
    from_here = distances(view.streets, a.at)
    to_home = distances(view.streets, view.suitcase_at).get(a.home, 99) or 2
    if view.carrier == agent:
        steps = from_here.get(a.home, 99) or 2
    else:
        steps = max(1, from_here.get(view.suitcase_at, 99)) + to_home
    carried = {x.index for x in view.agents if x.carried} | {agent}
    return steps + (CARRIER_PENALTY if len(carried) < 2 else 0)


def _to_suitcase(view: SeatView, agent: int) -> int:
    a = view.agents[agent]
    assert a.at is not None
    return 0 if view.carrier == agent else distances(view.streets, a.at).get(view.suitcase_at, 99)


def _ranked(view: SeatView) -> list[int]:
    """The agents still in the game, those that matter most first (ties: where the player has more)."""
    alive = [a.index for a in view.agents if a.at is not None]
    near = _to_suitcase if view.variant else _moves_to_win
    return sorted(alive, key=lambda a: (near(view, a), -view.bribes[a], a))


def _fit(amounts: list[int], capital: int) -> list[int] | None:
    """The amounts scaled down to the capital (in $100 steps, at least $100 each); None if even that can't be."""
    total = sum(amounts)
    if total <= capital:
        return amounts
    scaled = [max(STEP, amount * capital // total // STEP * STEP) for amount in amounts]
    return scaled if sum(scaled) <= capital else None


def _idea(view: SeatView, agents: list[int], amounts: list[int], why: str) -> Idea | None:
    fitted = _fit(amounts, view.capital)
    if fitted is None:
        return None
    return Idea({view.agents[a].colour: v for a, v in zip(agents, fitted, strict=True)}, why)


def bribe_ideas(view: SeatView) -> list[Idea]:
    """A handful of bribes for the seat to make now, the most useful first (none when it may not bribe now)."""
    if view.phase != "turn" or view.turn != view.seat or view.objected or view.capital < STEP:
        return []
    ranked = _ranked(view)
    if not ranked:
        return []
    own = [a for a in ranked if view.bribes[a] > 0]
    favourite = max(own, key=lambda a: (view.bribes[a], -ranked.index(a))) if own else None
    found: list[Idea | None] = []
    if view.first_turn:
        if len(ranked) >= 3:
            top3, top4 = ranked[:3], ranked[:4]
            found += [
                _idea(view, top3, [1_500, 1_000, 500], _("weighted to the one closest to winning")),
                _idea(view, top3, [3_000, 2_000, 1_000], _("a strong start, closest to winning first")),
                _idea(view, top3, [700, 500, 300], _("a small start, most of your capital kept")),
                _idea(view, top3, [2_000, 100, 100], _("backing one, the least on two more")),
            ]
            if len(top4) == 4:
                found.append(_idea(view, top4, [1_500, 1_000, 500, 500], _("four agents, closest to winning first")))
    else:
        first = ranked[0]
        words = VARIANT_WHY if view.variant else MAIN_WHY
        if favourite is not None:
            have = money(view.bribes[favourite])
            found.append(_idea(view, [favourite], [2_000], _("more on your agent (you have %(amount)s)", amount=have)))
        found.append(_idea(view, [first], [2_000], _(words[0])))
        if not view.variant and favourite is not None and favourite != first:
            found.append(
                _idea(view, [favourite, first], [2_000, 1_000], _("your agent and the one closest to winning"))
            )
        if view.carrier is not None and view.carrier not in (first, favourite):
            found.append(_idea(view, [view.carrier], [1_000], _("the agent carrying the suitcase")))
        found.append(_idea(view, [first], [500], _(words[1])))
        if len(ranked) > 1:
            found.append(_idea(view, [ranked[1]], [1_000], _(words[2])))
    out: list[Idea] = []
    for idea in found:
        if idea is not None and idea.amounts not in [o.amounts for o in out]:
            out.append(idea)
    return out[:MAX_IDEAS]


def suggested_amounts(view: SeatView, agents: list[int]) -> dict[int, int]:
    """A sum for each of the agents a player picked (the bribe form's hints): most on the one that matters most,
    as the first suggestion weighs them, within the capital left."""
    order = [a for a in _ranked(view) if a in agents]
    weights = [1_500, 1_000] if view.first_turn else [2_000, 1_000]
    wanted = [weights[i] if i < len(weights) else 500 for i in range(len(order))]
    fitted = _fit(wanted, view.capital) or [STEP] * len(order)
    return dict(zip(order, fitted, strict=True))
