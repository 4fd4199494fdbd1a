"""The duel as a small two-player zero-sum game, solved for its equilibrium by counterfactual regret minimisation.

Both duellists close a fist (0–2 tubers, within their supply) at the same time; the challenger then names a total
(0–4) publicly, and the challenged player, having heard it, names a different one. Whoever named the total takes
that many actions. The tree is tiny: the challenger's fist (one information set), the challenged player's fist
(one), the challenger's guess given its fist (≤ 3), the challenged player's guess given its fist and the challenger's
guess (≤ 15). CFR+ (regrets floored at zero, later iterations weighing more in the average, the two duellists
updated in turn) over it converges in about a hundred iterations, well within the time a decision may take.

The payoff is the challenger's, zero-sum: `mine[t]` when the challenger names the total t, `-theirs[t]` when the
challenged player does, 0 when neither does. The caller values t actions for each duellist (from the board).

An opponent model (`Model`) turns the solve into a restricted Nash response (Johanson et al. 2007): with weight
`weight` the opponent plays the model's fixed strategy, otherwise it is free (a best-responding adversary). The
modelled duellist's strategy is then the one that gains most against the model while staying safe against the rest
(weight 0: the plain equilibrium; weight 1: a pure best response to the model). Only the other duellist's regrets see
the model: CFR's counterfactual values are linear in the opponent's strategy, so they are the weighted sum of the
values against the model and against the free opponent.

Pure and deterministic: the same inputs give the same strategy (no random numbers; sampling from it is the
caller's, with its seeded generator).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

TOTALS = range(5)
ITERATIONS = 60
"""Enough for an exploitability below 1 % of the payoffs' scale (alternating CFR+; see the tests)."""


@dataclass(frozen=True)
class Model:
    """A fixed strategy for one duellist (`challenger` True: the challenger's), played with probability `weight`.

    `fist`: a probability per fist option (in the order of that duellist's fists); `guess`: for the challenger, per
    fist a probability per total 0–4; for the challenged player, per fist and per challenger guess g a probability
    per reply, the totals other than g in increasing order."""

    challenger: bool
    weight: float
    fist: tuple[float, ...]
    guess: tuple[tuple[float, ...], ...] | tuple[tuple[tuple[float, ...], ...], ...]


@dataclass(frozen=True)
class DuelStrategy:
    """An (approximate) equilibrium of one duel: each decision's probabilities."""

    challenger_fist: dict[int, float]
    challenged_fist: dict[int, float]
    challenger_guess: dict[int, dict[int, float]]
    """Challenger's fist → total named → probability."""
    challenged_guess: dict[tuple[int, int], dict[int, float]]
    """(challenged player's fist, challenger's guess) → total named → probability."""
    value: float
    """The challenger's expected payoff when both play this strategy."""


def solve(
    challenger_fists: Sequence[int],
    challenged_fists: Sequence[int],
    mine: Sequence[float],
    theirs: Sequence[float],
    iterations: int = ITERATIONS,
    model: Model | None = None,
) -> DuelStrategy:
    """The duel's equilibrium for these fists and values (cached: a duel is solved again for its guesses); with a
    `model`, the other duellist's restricted Nash response to it (see the module docstring)."""
    return _solve(tuple(challenger_fists), tuple(challenged_fists), tuple(mine), tuple(theirs), iterations, model)


def _normalise(weights: list[float]) -> list[float]:
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else [1 / len(weights)] * len(weights)


@lru_cache(maxsize=4096)
def _solve(
    fc: tuple[int, ...],
    fd: tuple[int, ...],
    mine: tuple[float, ...],
    theirs: tuple[float, ...],
    iterations: int,
    model: Model | None = None,
) -> DuelStrategy:
    nt = len(TOTALS)
    nc, nd = len(fc), len(fd)
    # The challenged player's options after each challenger guess g: every other total, as an index k.
    replies = [[h for h in TOTALS if h != g] for g in TOTALS]
    index = [{h: k for k, h in enumerate(r)} for r in replies]
    # The payoff is sparse: a right challenger guess pays mine[t] whatever the reply (a constant, which changes no
    # reply's regret), a wrong one pays -theirs[t] only for the reply k that names t. So each (fists, guess) is a
    # couple of multiplications instead of a row of replies: (i, j, g) → (right, k, payoff).
    cells = []
    for i, a in enumerate(fc):
        for j, b in enumerate(fd):
            t = a + b
            for g in TOTALS:
                if g == t:
                    cells.append((i, j, g, True, 0, mine[t]))
                elif t in index[g]:
                    cells.append((i, j, g, False, index[g][t], theirs[t]))

    reg_cf, reg_df = [0.0] * nc, [0.0] * nd
    reg_cg = [[0.0] * nt for _ in range(nc)]
    reg_dg = [[[0.0] * (nt - 1) for _ in range(nt)] for _ in range(nd)]
    avg_cf, avg_df = [0.0] * nc, [0.0] * nd
    avg_cg = [[0.0] * nt for _ in range(nc)]
    avg_dg = [[[0.0] * (nt - 1) for _ in range(nt)] for _ in range(nd)]

    # With a model, the modelled duellist's realisation (fist × guess probabilities) is fixed: its share `p` of the
    # realisation the other duellist plays against. Values are linear in that realisation, so one pass over the
    # blended realisation gives the blended values.
    p = model.weight if model is not None else 0.0
    m_cr = m_dr = None
    if model is not None and model.challenger:
        m_cr = [[p * model.fist[i] * x for x in model.guess[i]] for i in range(nc)]  # type: ignore[operator]
    elif model is not None:
        m_dr = [[[p * model.fist[j] * x for x in row] for row in model.guess[j]] for j in range(nd)]  # type: ignore[union-attr]
        m_df = [p * x for x in model.fist]
    q = 1.0 - p

    s_cf, s_df = _positive(reg_cf), _positive(reg_df)
    s_cg = [_positive(r) for r in reg_cg]
    s_dg = [[_positive(r) for r in row] for row in reg_dg]
    # Alternating updates (the challenger, then the challenged player against the challenger's new strategy):
    # CFR+ converges much faster so than with both at once. Later iterations weigh more in the average (linear).
    for it in range(1, iterations + 1):
        w = float(it)
        # The challenger: each guess's value against the challenged player's (blended) realisation.
        if m_dr is not None:
            r_df = [m_df[j] + q * s_df[j] for j in range(nd)]
            r_dg = [
                [
                    [m + q * s_df[j] * x for m, x in zip(mr, sr, strict=True)]
                    for mr, sr in zip(m_dr[j], s_dg[j], strict=True)
                ]
                for j in range(nd)
            ]
        else:
            r_df = s_df
            r_dg = [[[s_df[j] * x for x in row] for row in s_dg[j]] for j in range(nd)]
        v_cg = [[0.0] * nt for _ in range(nc)]
        for i, j, g, right, k, pay in cells:
            v_cg[i][g] += r_df[j] * pay if right else -pay * r_dg[j][g][k]
        v_cf = [_regret_step(s_cg[i], v_cg[i], reg_cg[i], avg_cg[i], w * s_cf[i]) for i in range(nc)]
        _regret_step(s_cf, v_cf, reg_cf, avg_cf, w)
        s_cf = _positive(reg_cf)
        s_cg = [_positive(r) for r in reg_cg]

        # The challenged player: each reply's value (its own payoff) against the challenger's realisation.
        if m_cr is not None:
            r_cg = [[m + q * s_cf[i] * x for m, x in zip(m_cr[i], s_cg[i], strict=True)] for i in range(nc)]
        else:
            r_cg = [[s_cf[i] * x for x in s_cg[i]] for i in range(nc)]
        v_dg = [[[0.0] * (nt - 1) for _ in range(nt)] for _ in range(nd)]
        base = [0.0] * nd
        """What a right challenger guess costs each fist, whatever the reply."""
        for i, j, g, right, k, pay in cells:
            if right:
                base[j] -= r_cg[i][g] * pay
            else:
                v_dg[j][g][k] += r_cg[i][g] * pay
        v_df = base
        for j in range(nd):
            scale = w * s_df[j]
            for g in range(nt):
                v_df[j] += _regret_step(s_dg[j][g], v_dg[j][g], reg_dg[j][g], avg_dg[j][g], scale)
        _regret_step(s_df, v_df, reg_df, avg_df, w)
        s_df = _positive(reg_df)
        s_dg = [[_positive(r) for r in row] for row in reg_dg]

    strategy = DuelStrategy(
        challenger_fist=dict(zip(fc, _normalise(avg_cf), strict=True)),
        challenged_fist=dict(zip(fd, _normalise(avg_df), strict=True)),
        challenger_guess={fc[i]: dict(zip(TOTALS, _normalise(avg_cg[i]), strict=True)) for i in range(nc)},
        challenged_guess={
            (fd[j], g): dict(zip(replies[g], _normalise(avg_dg[j][g]), strict=True)) for j in range(nd) for g in TOTALS
        },
        value=0.0,
    )
    return DuelStrategy(**{**strategy.__dict__, "value": payoff(strategy, mine, theirs)})


def _regret_step(
    policy: list[float], values: list[float], regrets: list[float], average: list[float], weight: float
) -> float:
    """One CFR+ update of a decision: its value under `policy` (returned), each choice's regret raised by how much
    better it did (floored at 0), and `policy` added to the `average` strategy with `weight` (the iteration times
    the chance of reaching the decision)."""
    node = sum(x * v for x, v in zip(policy, values, strict=True))
    for n in range(len(regrets)):
        regrets[n] = max(0.0, regrets[n] + values[n] - node)
        average[n] += weight * policy[n]
    return node


def _positive(regrets: list[float]) -> list[float]:
    """Regret matching: play each choice in proportion to its positive regret (uniformly when none is positive)."""
    return _normalise([r if r > 0 else 0.0 for r in regrets])


def outcome(t: int, g: int, h: int, mine: Sequence[float], theirs: Sequence[float]) -> float:
    """The challenger's payoff of a duel with total t, the challenger's guess g and the reply h."""
    if g == t:
        return mine[t]
    return -theirs[t] if h == t else 0.0


def payoff(s: DuelStrategy, mine: Sequence[float], theirs: Sequence[float]) -> float:
    """The challenger's expected payoff when both duellists play `s`."""
    total = 0.0
    for a, pa in s.challenger_fist.items():
        for b, pb in s.challenged_fist.items():
            for g, pg in s.challenger_guess[a].items():
                for h, ph in s.challenged_guess[(b, g)].items():
                    total += pa * pb * pg * ph * outcome(a + b, g, h, mine, theirs)
    return total


def best_responses(s: DuelStrategy, mine: Sequence[float], theirs: Sequence[float]) -> tuple[float, float]:
    """(the most the challenger can get against the challenged player's part of `s`, the least the challenged
    player can hold the challenger to against the challenger's part): their gap is the strategy's exploitability
    (zero at an exact equilibrium)."""
    fc, fd = list(s.challenger_fist), list(s.challenged_fist)
    # The challenger's best response: for each fist, the best guess; then the best fist.
    best_c = max(
        max(
            sum(
                pb * sum(ph * outcome(a + b, g, h, mine, theirs) for h, ph in s.challenged_guess[(b, g)].items())
                for b, pb in s.challenged_fist.items()
            )
            for g in TOTALS
        )
        for a in fc
    )
    # The challenged player's best response: for each fist and guess heard, the reply that costs the challenger most.
    worst = []
    for b in fd:
        value = 0.0
        for g in TOTALS:
            value += min(
                sum(
                    pa * s.challenger_guess[a][g] * outcome(a + b, g, h, mine, theirs)
                    for a, pa in s.challenger_fist.items()
                )
                for h in TOTALS
                if h != g
            )
        worst.append(value)
    return best_c, min(worst)
