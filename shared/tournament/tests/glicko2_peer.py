"""Glicko-2 rating periods computed by the PyPI package glicko2 2.1.0, for
glicko2_peer.rs.

Reads {"periods": [{"rating", "deviation", "volatility", "opponents": [{"rating",
"deviation"}], "scores": [1, 0.5, 0, ...]}]} on standard input and writes
{"package": [[rating, deviation, volatility], ...], "corrected": [...]}.

With a "seasons" key too ({"seasons": [{"players": [[rating, deviation, volatility]],
"periods": [[[[opponent, score], ...] per player] per period]}]}), it also writes
"seasons_package" and "seasons_corrected": per season, per period, every player's
[rating, deviation, volatility] after it. Each period rates every player from all
players' values at its start; a player with no opponents in it did_not_compete.

"package" is the package as published. Its volatility step's f(x) uses the player's
squared rating on the Glicko-2 scale (mu^2) where Glickman's paper has the squared
deviation (phi^2); "corrected" is the same package with that one term put right, so
the two sets show how much of any difference is that term.
"""

import json
import math
import sys

import glicko2


class Corrected(glicko2.Player):
    """The package's player with Glickman's f(x): phi^2 in place of mu^2."""

    def _f(self, x, delta, v, a):
        phi2 = self._Player__rd ** 2
        ex = math.exp(x)
        num = ex * (delta ** 2 - phi2 - v - ex)
        den = 2 * ((phi2 + v + ex) ** 2)
        return (num / den) - ((x - a) / (self._tau ** 2))


def rate(kind, period):
    player = kind(period["rating"], period["deviation"], period["volatility"])
    player.update_player(
        [o["rating"] for o in period["opponents"]],
        [o["deviation"] for o in period["opponents"]],
        period["scores"],
    )
    return [player.rating, player.rd, player.vol]


def season(kind, season):
    players = [kind(*p) for p in season["players"]]
    after = []
    for period in season["periods"]:
        start = [(p.rating, p.rd) for p in players]
        for player, games in zip(players, period):
            if games:
                player.update_player(
                    [start[o][0] for o, _ in games],
                    [start[o][1] for o, _ in games],
                    [score for _, score in games],
                )
            else:
                player.did_not_compete()
        after.append([[p.rating, p.rd, p.vol] for p in players])
    return after


def main():
    request = json.load(sys.stdin)
    assert glicko2.Player._tau == 0.5, "the package's tau is not 0.5"
    periods = request["periods"]
    json.dump(
        {
            "package": [rate(glicko2.Player, p) for p in periods],
            "corrected": [rate(Corrected, p) for p in periods],
            "seasons_package": [
                season(glicko2.Player, s) for s in request.get("seasons", [])
            ],
            "seasons_corrected": [
                season(Corrected, s) for s in request.get("seasons", [])
            ],
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
