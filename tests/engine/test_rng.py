"""The shared random generator: deterministic per seed, serialisable mid-stream, in range and fair enough."""

from collections import Counter

import pytest

from engine.rng import Rng


def draws(rng: Rng, n: int = 20) -> list[int]:
    return [rng.next_u64() for _ in range(n)]


def test_matches_the_published_splitmix64_sequence() -> None:
    # Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    assert draws(Rng.from_seed(0), 3) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_same_seed_same_sequence_and_other_seeds_differ() -> None:
    assert draws(Rng.from_seed(42)) == draws(Rng.from_seed(42))
    assert draws(Rng.from_seed(42)) != draws(Rng.from_seed(43))


def test_negative_and_huge_seeds_are_folded_into_64_bits() -> None:
    assert draws(Rng.from_seed(-1)) == draws(Rng.from_seed((1 << 64) - 1))
    assert draws(Rng.from_seed(1 << 64)) == draws(Rng.from_seed(0))


def test_json_round_trip_mid_stream_continues_identically() -> None:
    rng = Rng.from_seed(7)
    draws(rng, 5)
    rng.shuffle(list(range(10)))
    restored = Rng.model_validate_json(rng.model_dump_json())
    assert restored == rng
    assert draws(restored, 50) == draws(rng, 50)
    assert [restored.below(6) for _ in range(50)] == [rng.below(6) for _ in range(50)]


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 52, 1000, (1 << 63) + 5])
def test_below_stays_in_range(n: int) -> None:
    rng = Rng.from_seed(n)
    assert all(0 <= rng.below(n) < n for _ in range(300))


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        Rng.from_seed(1).below(0)


def test_below_is_roughly_uniform() -> None:
    rng = Rng.from_seed(2024)
    counts = Counter(rng.below(6) for _ in range(12_000))
    assert set(counts) == set(range(6))
    # Expected 2000 each; the standard deviation is about 41, so ±200 only fails for a biased generator.
    assert all(1800 <= c <= 2200 for c in counts.values()), counts


def test_randint_includes_both_ends() -> None:
    rng = Rng.from_seed(5)
    rolls = {rng.randint(1, 6) for _ in range(500)}
    assert rolls == {1, 2, 3, 4, 5, 6}


def test_shuffle_is_a_permutation_that_actually_moves_things() -> None:
    items = list(range(30))
    shuffled = items.copy()
    Rng.from_seed(9).shuffle(shuffled)
    assert sorted(shuffled) == items
    assert shuffled != items
    other = items.copy()
    Rng.from_seed(10).shuffle(other)
    assert other != shuffled


def test_shuffle_reaches_every_order_of_three() -> None:
    rng = Rng.from_seed(3)
    orders = set()
    for _ in range(300):
        items = ["a", "b", "c"]
        rng.shuffle(items)
        orders.add(tuple(items))
    assert len(orders) == 6


def test_choice_and_sample() -> None:
    rng = Rng.from_seed(11)
    assert rng.choice(["only"]) == "only"
    with pytest.raises(ValueError):
        rng.choice([])
    picked = rng.sample(range(10), 4)
    assert len(picked) == 4 and len(set(picked)) == 4 and set(picked) <= set(range(10))
