"""How the hard computer player reads its duel opponent: a model of a sensible guesser, trusted as far as the
opponent's last revealed duel bears it out.

The model (`sensible`) is the guesser the normal player also assumes of its opponents: it closes its fist leaning to
2 (a higher total gives the right guesser more actions), names as first guesser the total its own fist makes likely,
weighted by the actions it brings (never one its fist rules out), and as second guesser reads the first guess as
such a guess and names the best total left. (It is also how the easy and normal players guess: the model is theirs,
but how far it is trusted is read from the table, so a player who guesses otherwise soon meets the equilibrium.) The
equilibrium leaves much on the table against such a player: its first guess gives its fist away, and its reply can
be led.

The trust (`trust`) comes from public behaviour only: the last duel's reveal (`last_duel`, in every view) shows the
opponent's fist and guess. Their likelihood under the model, against the plain equilibrium (a player who gives
nothing away), updates a prior (Bayes' rule on one observation: the view holds no longer history, and the policy
keeps no memory). A guess the model never makes (a bluff: a total the opponent's own fist ruled out) drops the trust
to 0, so an opponent who bluffs is met with the plain equilibrium in the next duel; a fist and guess the equilibrium
makes as readily as the model (an empty fist and a guess of 2) leave little trust, so two hard players do not read
each other as sensible guessers (their tables stalled so: each led the other's reply to totals of 0). Closed fists
and the supplies in hand are never read: only the revealed duel, the supplies on the table and the guesses said
aloud.
"""

from engine.kesse_ruegen.duel import TOTALS, Model, solve
from engine.kesse_ruegen.state import DuelResult

MODEL_FIST = (0.2, 0.3, 0.5)
"""The model's fist mix for 0, 1, 2 tubers (renormalised over what the supply allows)."""
PRIOR = 0.5
"""The trust in the model before the opponent's last duel is seen."""
REFERENCE = (0.0, 1.0, 2.0, 3.0, 4.0)
"""The duel's values for the reference player (the plain equilibrium): each total's actions."""
FLOOR = 0.01
"""The least likelihood the reference gives a choice (its solution is approximate; a tie breaks against the model)."""
SHARP = 0.5
"""How much the model's second guesser trusts its own model of the first guesser (the rest: uniform)."""


def fist_prior(supply: int) -> dict[int, float]:
    """What a fist may hold, before any clue: each fist the supply allows, equally likely."""
    options = range(min(2, supply) + 1)
    return {n: 1 / len(options) for n in options}


def first_guess(mine: int, other_supply: int) -> dict[int, float]:
    """The model's first guess with its fist `mine`: probability × total, squared, normalised (mostly the best)."""
    prior = fist_prior(other_supply)
    weights = {t: (prior.get(t - mine, 0.0) * t) ** 2 for t in TOTALS}
    norm = sum(weights.values())
    return {t: w / norm for t, w in weights.items()} if norm > 0 else {t: 1 / len(TOTALS) for t in TOTALS}


def second_guess(mine: int, said: int, other_supply: int) -> dict[int, float]:
    """The model's reply with its fist `mine` to the first guess `said`: the best total left given what the first
    guess tells of the other fist (ties shared)."""
    posterior = {}
    for theirs, p in fist_prior(other_supply).items():
        likelihood = SHARP * first_guess(theirs, 3).get(said, 0.0) + (1 - SHARP) / len(TOTALS)
        posterior[theirs] = p * likelihood
    left = [t for t in TOTALS if t != said]
    score = {t: posterior.get(t - mine, 0.0) * t for t in left}
    top = max(score.values())
    best = [t for t in left if score[t] >= top - 1e-12]
    return {t: (1 / len(best) if t in best else 0.0) for t in left}


def sensible(challenger: bool, fists: tuple[int, ...], other_supply: int, weight: float) -> Model:
    """The model as a `duel.Model` for the challenger (`challenger`) or the challenged player, whose fist options
    are `fists`; `other_supply`: the modelled player's opponent's supply (its prior over that fist)."""
    raw = [MODEL_FIST[n] for n in fists]
    fist = tuple(w / sum(raw) for w in raw)
    if challenger:
        guess: tuple = tuple(tuple(first_guess(a, other_supply)[t] for t in TOTALS) for a in fists)
    else:
        guess = tuple(
            tuple(tuple(second_guess(b, g, other_supply)[h] for h in TOTALS if h != g) for g in TOTALS) for b in fists
        )
    return Model(challenger=challenger, weight=weight, fist=fist, guess=guess)


def trust(last: DuelResult | None, opponent: int, my_supply: int) -> float:
    """The weight of the model for `opponent`: Bayes' rule on its fist and guess in the last revealed duel (if it was
    in it), the model against the plain equilibrium of a duel valued by its totals (what a player who does not give
    its fist away would have done)."""
    if last is None or opponent not in (last.challenger, last.challenged):
        return PRIOR
    fists = (0, 1, 2)
    reference = solve(fists, fists, REFERENCE, REFERENCE)
    if opponent == last.challenger:
        a, g = last.challenger_choice, last.challenger_guess
        model = MODEL_FIST[a] * first_guess(a, my_supply).get(g, 0.0)
        plain = reference.challenger_fist[a] * reference.challenger_guess[a][g]
    else:
        b, g, h = last.challenged_choice, last.challenger_guess, last.challenged_guess
        model = MODEL_FIST[b] * second_guess(b, g, my_supply).get(h, 0.0)
        plain = reference.challenged_fist[b] * reference.challenged_guess[(b, g)][h]
    odds = PRIOR * model
    return odds / (odds + (1 - PRIOR) * max(plain, FLOOR))
