"""A game's own options in `/game new options:` — read, checked, refused with the valid ones named, shown in the
lobby and in `/game rules`, and in force in the game."""

import pytest
import simcord

from bot import game_options
from bot.games import load_presentation
from engine import registry
from tests.bot.helpers import embed_text, make_server, state
from tests.bot.toygame import Toy

KKK = registry.get("kkk")


def test_reading_options() -> None:
    assert game_options.parse(KKK, "hide_hand_sizes") == {"hide_hand_sizes": True}
    assert game_options.parse(KKK, " Hide-Hand-Sizes=off ") == {"hide_hand_sizes": False}
    assert game_options.parse(KKK, "no_hide_hand_sizes") == {"hide_hand_sizes": False}
    assert game_options.parse(KKK, "") == game_options.parse(KKK, None) == {}
    assert game_options.parse(Toy(), "hand_size=4, target=20") == {"hand_size": 4, "target": 20}
    assert game_options.parse(Toy(), "hand_size=4;target=20") == {"hand_size": 4, "target": 20}


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        (
            KKK,
            "bogus",
            "I don't know the option “bogus” for Kohle, Kies & Knete. Kohle, Kies & Knete's options: "
            "`hide_hand_sizes` (on/off, default off) — On: the table doesn't show how many cards each player holds",
        ),
        (
            KKK,
            "hide_hand_sizes=maybe",
            "The option `hide_hand_sizes` can't be “maybe”: Input should be a valid boolean",
        ),
        (KKK, "reaction_time=5", "Set `reaction_time` with the `reaction_time` parameter of `/game new`"),
        (KKK, "hide_hand_sizes, hide_hand_sizes=off", "The option `hide_hand_sizes` is given twice."),
        (Toy(), "hand_size", "Give `hand_size` a value, e.g. `hand_size=…`."),
        (Toy(), "hand_size=99", "The option `hand_size` can't be “99”: Input should be less than or equal to 10"),
        (Toy(), "colour=red", "Toy's options: `hand_size` (int, default 3); `target` (int, default 15)."),
    ],
)
def test_bad_options_are_refused_naming_the_option_and_the_valid_ones(game, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    helps = load_presentation("kkk").option_help if game is KKK else None  # the option's words are the game's
    with pytest.raises(game_options.OptionsError) as info:
        game_options.parse(game, text, helps=helps)
    assert message in str(info.value)


async def test_a_game_opened_with_its_own_options(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, _, _ = server.members
    suggested = await anna.autocomplete(server.channel, "game new", "options", "", game="toy")
    assert [c["value"] for c in suggested] == ["hand_size=", "target="]
    suggested = await anna.autocomplete(server.channel, "game new", "options", "hand_size=5, ta", game="toy")
    assert [c["value"] for c in suggested] == ["hand_size=5, target="]
    opened = await anna.slash(server.channel, "game new", game="toy", options="hand_size=5, target=30")
    assert "options: hand_size=5, target=30" in embed_text(opened.response.message)
    await bert.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    game = await state(server, 1)
    assert [len(h) for h in game.hands] == [5, 5] and game.options.target == 30


async def test_a_bad_option_opens_nothing_and_says_what_is_valid(env: simcord.Env) -> None:
    server = make_server(env)
    refused = await server.members[0].slash(server.channel, "game new", game="toy", options="size=4")
    assert refused.response.ephemeral
    assert refused.response.content == (
        "I don't know the option “size” for Toy. Toy's options: `hand_size` (int, default 3); `target` (int, "
        "default 15)."
    )
    assert not server.channel.threads and await server.bot.store.games.find() == []


async def test_the_rules_list_a_games_options(env: simcord.Env) -> None:
    server = make_server(env)
    rules = await server.members[0].slash(server.channel, "game rules", game="toy")
    shown = embed_text(rules.response.message)
    assert "Options for /game new game:toy options:…: • `hand_size` (int, default 3)\n• `target` (int, default 15)" in (
        shown
    )
