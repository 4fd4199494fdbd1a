import simcord
from tests.bot.helpers import make_server
from tests.bot.kesse_ruegen.helpers import start_game


async def test_scratch(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, joiners=2)
    for g in [5, 2**64, -1, "99999999999999999999"]:
        try:
            r = await players[0].autocomplete(thread, "kr duel", "opponent", "", game=g)
            print(g, "ac", r)
        except Exception as e:
            print(g, "EXC", type(e), e)
    for g in ["99999999999999999999", "-5", "abc"]:
        try:
            r = await players[0].autocomplete(thread, "kr duel", "game", g)
            print(g, "ac-focused", r)
        except Exception as e:
            print(g, "EXC", type(e), e)
