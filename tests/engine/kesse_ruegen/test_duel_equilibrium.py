"""The duel's equilibrium (`engine.kesse_ruegen.duel`), which the hard computer player plays.

- It is close to an equilibrium: neither duellist can gain by deviating more than 1.5 % of the payoffs' scale
  (best responses against each side of the solved strategy), over boards of different values.
- It never gives a worse choice real weight (e.g. a total the duellist's own fist makes impossible, when a possible
  one pays): at every guess, what it names is worth nearly its best choice there.
- Known small cases: against an empty-handed opponent the challenger closes its fist on 2 and names 2; when only the
  challenged player can hold anything, a right guess can never be made for the challenger to gain (value 0).
- Deterministic: the same inputs give the same strategy.
- With a model of the opponent (a sensible guesser, `reading.sensible`), the restricted Nash response gains much
  more against that model than the equilibrium does, and loses little more against a best-responding opponent; a
  model of weight 0 changes nothing.
"""

import pytest

from engine.kesse_ruegen.duel import TOTALS, DuelStrategy, Model, _solve, best_responses, outcome, solve
from engine.kesse_ruegen.reading import sensible

BOARDS = [
    ((0, 1, 2), (0, 1, 2), (0, 100, 200, 300, 400), (0, 100, 200, 300, 400)),
    ((0, 1, 2), (0, 1, 2), (0, 69, 98, 167, 196), (0, 40, 150, 190, 300)),
    ((0, 1), (0, 1, 2), (0, 300, 350, 360, 3000), (0, 100, 180, 250, 300)),
    ((0, 1, 2), (0,), (0, 50, 60, 110, 120), (0, 80, 80, 160, 160)),
]


@pytest.mark.parametrize(("fc", "fd", "mine", "theirs"), BOARDS)
def test_neither_duellist_gains_much_by_deviating(
    fc: tuple[int, ...], fd: tuple[int, ...], mine: tuple[float, ...], theirs: tuple[float, ...]
) -> None:
    strategy = solve(fc, fd, mine, theirs)
    best, worst = best_responses(strategy, mine, theirs)
    scale = max(max(mine), max(theirs))
    assert worst - 1e-9 <= strategy.value <= best + 1e-9
    assert best - worst <= 0.015 * scale, (best, worst)


@pytest.mark.parametrize(("fc", "fd", "mine", "theirs"), BOARDS)
def test_no_worse_choice_has_real_weight(
    fc: tuple[int, ...], fd: tuple[int, ...], mine: tuple[float, ...], theirs: tuple[float, ...]
) -> None:
    """At every guess a duellist reaches, what it names is worth (nearly) as much as its best choice there: a
    choice worse than another (e.g. a total its own fist rules out, when a possible one pays) gets no real weight.
    Ties may share the weight (naming a total of 0 is worth nothing whoever names it)."""
    strategy = solve(fc, fd, mine, theirs)
    scale = max(max(mine), max(theirs))
    for a in fc:  # the challenger with fist a: each guess's worth against the challenged player's strategy
        worth = {
            g: sum(
                pb * sum(ph * outcome(a + b, g, h, mine, theirs) for h, ph in strategy.challenged_guess[(b, g)].items())
                for b, pb in strategy.challenged_fist.items()
            )
            for g in TOTALS
        }
        played = sum(p * worth[g] for g, p in strategy.challenger_guess[a].items())
        assert strategy.challenger_fist[a] * (max(worth.values()) - played) <= 0.01 * scale, (a, worth)
        if all(g - a not in fd for g in TOTALS if worth[g] == max(worth.values())):
            continue
        impossible = sum(p for g, p in strategy.challenger_guess[a].items() if g - a not in fd)
        if max(worth.values()) > max(worth[g] for g in TOTALS if g - a not in fd) + 0.05 * scale:
            assert strategy.challenger_fist[a] * impossible < 0.05, (a, impossible)
    for (b, g), replies in strategy.challenged_guess.items():  # the challenged player, fist b, having heard g
        worth = {
            h: -sum(
                strategy.challenger_fist[a] * strategy.challenger_guess[a][g] * outcome(a + b, g, h, mine, theirs)
                for a in fc
            )
            for h in replies
        }
        played = sum(p * worth[h] for h, p in replies.items())
        assert strategy.challenged_fist[b] * (max(worth.values()) - played) <= 0.01 * scale, (b, g, worth, replies)


def test_against_an_empty_hand_the_challenger_takes_the_most_and_names_it() -> None:
    values = (0.0, 100.0, 200.0, 300.0, 400.0)
    strategy = solve((0, 1, 2), (0,), values, values)
    assert strategy.challenger_fist[2] > 0.95
    assert strategy.challenger_guess[2][2] > 0.95
    assert strategy.value == pytest.approx(200.0, rel=0.03)


def test_when_only_the_challenged_player_can_hold_anything_the_challenger_cannot_win_on_average() -> None:
    values = (0.0, 10.0, 20.0, 30.0, 40.0)
    strategy = solve((0,), (0, 1), values, values)
    assert abs(strategy.value) < 0.3


def test_the_same_duel_gives_the_same_strategy() -> None:
    args = ((0, 1, 2), (0, 1), (0.0, 50.0, 80.0, 130.0, 160.0), (0.0, 60.0, 70.0, 130.0, 140.0))
    first = solve(*args)
    _solve.cache_clear()
    again = solve(*args)
    assert first == again and first is not again
    assert all(abs(sum(mix.values()) - 1) < 1e-9 for mix in first.challenger_guess.values())
    assert set(first.challenger_guess[0]) == set(TOTALS)


# --- the restricted Nash response to a model of the opponent (what the hard player plays) ------------------------

RAW = (0.0, 100.0, 200.0, 300.0, 400.0)


def _against_model(s: DuelStrategy, model: Model) -> float:
    """The modelled duellist's opponent's expected payoff when it plays `s` and the model plays its fixed part."""
    replies = [[h for h in TOTALS if h != g] for g in TOTALS]
    fc, fd = list(s.challenger_fist), list(s.challenged_fist)
    total = 0.0
    if model.challenger:  # the model challenges; the payoff is the challenged player's
        for i, a in enumerate(fc):
            for g in TOTALS:
                reach = model.fist[i] * model.guess[i][g]  # type: ignore[operator]
                for b, pb in s.challenged_fist.items():
                    total -= (
                        reach
                        * pb
                        * sum(ph * outcome(a + b, g, h, RAW, RAW) for h, ph in s.challenged_guess[(b, g)].items())
                    )
        return total
    for a, pa in s.challenger_fist.items():
        for g, pg in s.challenger_guess[a].items():
            for j, b in enumerate(fd):
                row = model.guess[j][g]  # type: ignore[index]
                total += (
                    pa
                    * pg
                    * model.fist[j]
                    * sum(ph * outcome(a + b, g, h, RAW, RAW) for h, ph in zip(replies[g], row, strict=True))
                )  # type: ignore[arg-type]
    return total


@pytest.mark.parametrize("model_challenges", [True, False])
def test_against_a_sensible_guesser_the_response_gains_much_more_than_the_equilibrium_and_stays_safe(
    model_challenges: bool,
) -> None:
    plain = solve((0, 1, 2), (0, 1, 2), RAW, RAW)
    model = sensible(model_challenges, (0, 1, 2), 16, 0.5)
    response = solve((0, 1, 2), (0, 1, 2), RAW, RAW, model=model)
    gained, before = _against_model(response, model), _against_model(plain, model)
    assert gained > 1.5 * before and gained > before + 0.05 * max(RAW), (gained, before)
    # Safe: against a best-responding opponent it loses at most a little more than the equilibrium does.
    best, worst = best_responses(response, RAW, RAW)
    plain_best, plain_worst = best_responses(plain, RAW, RAW)
    if model_challenges:
        assert -best >= -plain_best - 0.1 * max(RAW), (best, plain_best)
    else:
        assert worst >= plain_worst - 0.1 * max(RAW), (worst, plain_worst)


def test_a_model_of_weight_zero_is_the_equilibrium() -> None:
    plain = solve((0, 1, 2), (0, 1), RAW, RAW)
    none = solve((0, 1, 2), (0, 1), RAW, RAW, model=sensible(True, (0, 1, 2), 16, 0.0))
    assert none.challenger_fist == pytest.approx(plain.challenger_fist)
    assert none.challenged_fist == pytest.approx(plain.challenged_fist)
