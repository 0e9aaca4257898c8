"""Plays a whole chess game over Xfcc with zeep, a SOAP client driven by the served WSDL.

Arguments: the WSDL's URL, the server's public URL, the game's id, then ann's and bob's
application passwords. ann has white. Every answer is checked field by field; the last
line printed says the game was played.
"""

import sys

import zeep
from zeep.exceptions import Fault

wsdl, base, game_id, ann_password, bob_password = sys.argv[1:6]
client = zeep.Client(wsdl)
service = client.service
passwords = {"ann": ann_password, "bob": bob_password}


def games(player):
    """The player's games, as GetMyGames lists them."""
    result = service.GetMyGames(username=player, password=passwords[player])
    return [] if result is None else list(result)


def only_game(player):
    listed = games(player)
    assert len(listed) == 1, listed
    return listed[0]


def move(player, movecount, my_move="", password=None, **flags):
    """MakeAMove's result code."""
    return service.MakeAMove(
        username=player,
        password=password or passwords[player],
        gameId=flags.pop("game", number),
        resign=flags.pop("resign", False),
        acceptDraw=flags.pop("acceptDraw", False),
        movecount=movecount,
        myMove=my_move,
        offerDraw=flags.pop("offerDraw", False),
        claimDraw=flags.pop("claimDraw", False),
        myMessage=flags.pop("myMessage", ""),
    )


def check(game, **expected):
    """Each field as expected; an empty text may come as None."""
    for field, value in expected.items():
        got = getattr(game, field)
        if got is None and value == "":
            got = ""
        assert got == value, (field, got, value)


ann = only_game("ann")
bob = only_game("bob")
number = ann.id
assert isinstance(number, int) and number > 0, number
common = dict(
    id=number, white="ann", black="bob", event="Missive", site=base, eventDate="2026.03.01",
    setup=False, timeControl="1/259200", whiteElo=0, blackElo=0, gameLink=f"{base}/games/{game_id}", variant="chess",
)
check(ann, **common, myTurn=True, hasWhite=True, moves="", drawOffered=False, result="Ongoing",
      daysPlayer=3, hoursPlayer=0, minutesPlayer=0, daysOpponent=3, hoursOpponent=0,
      minutesOpponent=0)
check(bob, **common, myTurn=False, hasWhite=False, moves="", drawOffered=False, result="Ongoing")
check(ann, fen="")
print("listed")

try:
    service.GetMyGames(username="ann", password=bob_password)
    raise AssertionError("a wrong password listed games")
except Fault as fault:
    assert "AuthenticationFailed" in fault.message, fault.message

assert move("ann", 1, "f3", password=bob_password) == "AuthenticationFailed"
assert move("bob", 1, "e5") == "NotYourTurn"
assert move("ann", 2, "f3") == "InvalidMoveNumber"
assert move("ann", 1, "e5") == "InvalidMove"
assert move("ann", 1, "f3", game=number + 1 if number < 2**31 - 1 else 1) == "InvalidGameID"
assert move("ann", 1, "f3", myMessage="Good luck!") == "Success"
assert move("ann", 1, "f3") == "Success", "a move sent again is answered as the first time"
print("first move")

bob = only_game("bob")
check(bob, myTurn=True, moves="1.f3", message="Good luck!", drawOffered=False)
assert move("bob", 1, "e5", offerDraw=True) == "Success"
ann = only_game("ann")
check(ann, myTurn=True, moves="1.f3 e5", drawOffered=True, message="")
assert move("bob", 1, acceptDraw=True) == "NoDrawWasOffered"
print("draw offered")

said = move("ann", 2, "g4", myMessage="No, thanks.")
assert said == "Success", said
bob = only_game("bob")
check(bob, myTurn=True, moves="1.f3 e5 2.g4", drawOffered=False, message="No, thanks.")
ann = only_game("ann")
check(ann, myTurn=False, drawOffered=False)
assert move("bob", 2, "Qh4#") == "Success"
print("mate")

for player in ("ann", "bob"):
    check(only_game(player), result="BlackWins", myTurn=False, moves="1.f3 e5 2.g4 Qh4#")
assert move("ann", 3, "Ke2") == "NotYourTurn"
print("played the game over Xfcc")
