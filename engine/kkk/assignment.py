"""Which card serves which requirement of the space: what the Boss has at their disposal, and the assignment.

At the Boss's disposal: their own investors and their own played clan cards, plus the cards covered by binding
agreements (the seller's investor or played clan card of the agreed family), all not on travel. An assignment gives
one card to each required family and one card to each of k distinct families of the "k of group" block; a family
is never counted twice.

The bot's choice (rules/kkk.md, Conclusion 1): investor cards before clan cards (investors are kept, used clan cards
are discarded), the Boss's own cards before cards that cost money, and among equals the cheapest (then the lowest
seat, so it is deterministic). For the group block, the k families whose best cards rank best. The Boss may name
another valid assignment instead.
"""

from dataclasses import dataclass

from pydantic import JsonValue

from engine.errors import rule
from engine.kkk.negotiation import value
from engine.kkk.state import KkkState, Use
from engine.kkk.table import NO_SUCH_PLAYER, dividend_value, round_space


@dataclass(frozen=True, order=True)
class Source:
    """One card the Boss may use; ordered best first by the bot's preference."""

    clan: bool
    paid: bool
    cost: int
    seat: int
    family: str
    offer: int = 0
    """The binding agreement that covers it (0: the Boss's own card)."""

    @property
    def use(self) -> Use:
        return Use(family=self.family, seat=self.seat, card="clan" if self.clan else "investor")  # type: ignore[arg-type]


def sources(state: KkkState, family: str) -> list[Source]:
    """Every card of `family` at the Boss's disposal, best first."""
    r = state.round
    assert r is not None
    boss = r.boss
    found: list[Source] = []
    on_travel = family in r.travel
    if state.investors[family] == boss and not on_travel:
        found.append(Source(False, False, 0, boss, family))
    if family in r.clans[boss]:
        found.append(Source(True, False, 0, boss, family))
    tv = dividend_value(state)
    for o in state.offers:
        if o.status != "binding" or o.family != family:
            continue
        cost = value(o, tv)
        if state.investors[family] == o.seller and not on_travel:
            found.append(Source(False, True, cost, o.seller, family, o.id))
        if family in r.clans[o.seller]:
            found.append(Source(True, True, cost, o.seller, family, o.id))
    found.sort()
    return found


def best_uses(state: KkkState) -> tuple[list[Use], bool]:
    """The bot's picks for every family it can cover now, and whether they satisfy the space."""
    space = round_space(state)
    uses: list[Use] = []
    complete = True
    for f in space.required:
        found = sources(state, f)
        if found:
            uses.append(found[0].use)
        else:
            complete = False
    if space.group:
        best = sorted((found[0], f) for f in space.group.of if (found := sources(state, f)))
        if len(best) < space.group.k:
            complete = False
        uses += [src.use for src, _ in best[: space.group.k]]
    return uses, complete


def auto_assign(state: KkkState) -> list[Use] | None:
    """The bot's assignment, or None if the cards at the Boss's disposal do not satisfy the space."""
    uses, complete = best_uses(state)
    return uses if complete else None


def missing(state: KkkState) -> dict[str, JsonValue]:
    """What the Boss still lacks, for a refusal: `lacking` (required families, in the space's order), `more` (how
    many more of the group, 0: none) and `group` (the group's families)."""
    space = round_space(state)
    lacking: list[JsonValue] = [f for f in space.required if not sources(state, f)]
    more = 0
    group: list[JsonValue] = []
    if space.group:
        have = sum(1 for f in space.group.of if sources(state, f))
        more = max(0, space.group.k - have)
        group = list(space.group.of)
    return {"lacking": lacking, "more": more, "group": group}


def validate(state: KkkState, uses: tuple[Use, ...] | list[Use]) -> list[Use]:
    """Check the Boss's own assignment; refuse with the first problem found."""
    r = state.round
    assert r is not None
    space = round_space(state)
    seen: set[str] = set()
    for u in uses:
        if u.family not in space.families:
            raise rule("family_not_needed", family=u.family, space=space.number)
        if u.family in seen:
            raise rule("assigned_twice", family=u.family)
        seen.add(u.family)
        if not 0 <= u.seat < state.seats:
            raise rule(NO_SUCH_PLAYER)
        if u.seat != r.boss and not any(
            o.status == "binding" and o.seller == u.seat and o.family == u.family for o in state.offers
        ):
            raise rule("no_agreement_with", seat=u.seat, family=u.family)
        if u.card == "investor":
            if state.investors[u.family] != u.seat:
                raise rule("not_investor_owner", seat=u.seat, family=u.family)
            if u.family in r.travel:
                raise rule("investor_on_travel", family=u.family)
        elif u.family not in r.clans[u.seat]:
            raise rule("no_clan_on_table", seat=u.seat, family=u.family)
    absent = [f for f in space.required if f not in seen]
    if absent:
        raise rule("assignment_leaves_out", families=absent)
    if space.group:
        n = len(seen & set(space.group.of))
        if n != space.group.k:
            raise rule("group_count", k=space.group.k, group=list(space.group.of), assigned=n)
    return list(uses)
