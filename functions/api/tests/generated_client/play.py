"""Plays a whole game through a client generated from docs/openapi.json, nothing else.

Run by tests/generated_client.rs with the generated package on PYTHONPATH:
    play.py BASE_URL ANN_SIGN_UP_TOKEN BOB_SIGN_UP_TOKEN
Every call raises on a status the description does not declare; the script exits non-zero
on the first answer that is not what the description promises.
"""

import datetime
import io
import sys

from missive_client import AuthenticatedClient, Client
from missive_client.api.archive import get_archive_key, get_player_archive, import_archive
from missive_client.api.auth import exchange_token
from missive_client.api.games import (
    answer_draw,
    create_game,
    get_board_png,
    get_board_svg,
    get_game,
    get_game_archive,
    join_game,
    list_games,
    list_moves,
    play_move,
    resign,
)
from missive_client.api.messages import list_messages, write_message
from missive_client.api.meta import health
from missive_client.api.players import get_player, sign_up
from missive_client.api.rules import analyse_position, list_variants
from missive_client.models import (
    Analysis,
    CreateGame,
    CreatorSeat,
    CreatorSeatKind,
    DaysPerMove,
    DaysPerMoveKind,
    Draw,
    DrawAction,
    EndingView,
    ErrorBody,
    GameView,
    ImportAnswer,
    InviteSeat,
    InviteSeatKind,
    Join,
    ListGamesStatus,
    Move,
    SignUp,
    TokenRequest,
    VariantId,
    Write,
)
from missive_client.types import File


def check(condition, what):
    if not condition:
        sys.exit(f"generated client: {what}")


def signed_in(base, token):
    answer = exchange_token.sync(client=Client(base), body=TokenRequest(token=token))
    check(answer is not None and answer.token_type.value == "Bearer", f"token answer {answer}")
    return answer.handle, AuthenticatedClient(base, token=answer.access_token, raise_on_unexpected_status=True)


def new_game(ann, opponent):
    created = create_game.sync(
        client=ann,
        body=CreateGame(
            variant=VariantId.CHESS,
            seats=[
                CreatorSeat(kind=CreatorSeatKind.CREATOR),
                InviteSeat(kind=InviteSeatKind.INVITE, player=opponent),
            ],
            time_control=DaysPerMove(kind=DaysPerMoveKind.DAYS_PER_MOVE, days=3),
        ),
    )
    return created.id


def main():
    base, ann_token, bob_token = sys.argv[1:4]
    public = Client(base, raise_on_unexpected_status=True)
    check(health.sync(client=public).status.value == "ok", "health")
    variants = list_variants.sync(client=public)
    check({v.id for v in variants} >= {"chess", "xiangqi", "sanguo"}, "variants")
    analysed = analyse_position.sync(client=public, body=Analysis(variant=VariantId.CHESS, moves=["e4"]))
    check(analysed.ply == 1 and "e5" in analysed.legal_moves_short, "analysis")

    mailed = sign_up.sync(client=public, body=SignUp(handle="cyd", email="cyd@example.org"))
    check(mailed is not None and "mail" in mailed.status, f"sign-up answers {mailed}")

    ann_handle, ann = signed_in(base, ann_token)
    bob_handle, bob = signed_in(base, bob_token)
    check(get_player.sync(ann_handle, client=public).handle == ann_handle, "player")

    game = new_game(ann, bob_handle)
    check(join_game.sync(game, client=bob, body=Join()).seat == 1, "bob takes seat 1")
    view = get_game.sync_detailed(game, client=ann)
    check(isinstance(view.parsed, GameView) and view.parsed.status.value == "active", f"active {view}")
    etag = view.headers["etag"]
    check(get_game.sync_detailed(game, client=ann, if_none_match=etag).status_code == 304, "304")

    stale = play_move.sync_detailed(game, client=ann, body=Move(move="e4", expected_ply=5))
    check(stale.status_code == 409 and isinstance(stale.parsed, ErrorBody), "stale ply is 409")
    check(stale.parsed.error.code == "stale-ply" and stale.parsed.error.current_ply == 0, "current_ply")
    illegal = play_move.sync_detailed(game, client=ann, body=Move(move="e5", expected_ply=0))
    check(illegal.status_code == 422 and illegal.parsed.error.code == "illegal-move", "illegal is 422")

    write_message.sync(game, client=ann, body=Write(text="Good luck!"))
    for ply, (player, san) in enumerate([(ann, "f3"), (bob, "e5"), (ann, "g4"), (bob, "Qh4#")]):
        played = play_move.sync(game, client=player, body=Move(move=san, expected_ply=ply), idempotency_key=f"k{ply}")
        check(played.move.ply == ply and isinstance(played.move.at, datetime.datetime), f"move {san}")

    over = get_game.sync(game, client=bob)
    ending = over.ending
    check(isinstance(ending, EndingView) and ending.rule == "checkmate", f"ending {ending}")
    check([r.value for r in ending.results] == ["loss", "win"], "results")
    check(ending.at.tzinfo is not None, "RFC 3339 times")
    moves = list_moves.sync(game, client=public)
    check([m.short for m in moves.items] == ["f3", "e5", "g4", "Qh4#"], "move log")
    messages = list_messages.sync(game, client=bob)
    check([m.text for m in messages.items] == ["Good luck!"], "messages")
    check(get_board_svg.sync(game, client=public).startswith("<svg"), "svg")
    png = get_board_png.sync_detailed(game, client=public)
    check(png.status_code == 200 and png.content.startswith(b"\x89PNG"), "png")

    finished = list_games.sync(client=ann, player="me", status=ListGamesStatus.FINISHED)
    check([g.id for g in finished.items] == [game], "finished list")

    archive = get_game_archive.sync(game, client=public)
    check("Qh4#" in archive and "[Result \"0-1\"]" in archive, "archive text")
    check(get_archive_key.sync(client=public).key.startswith("ed25519:"), "archive key")
    check("Qh4#" in get_player_archive.sync(ann_handle, client=public), "player archive")
    imported = import_archive.sync(client=bob, body=File(payload=io.BytesIO(archive.encode())))
    check(isinstance(imported, ImportAnswer) and imported.imported == 1, f"import {imported}")
    copy = get_game.sync(imported.games[0].id, client=bob)
    check(copy.imported and copy.verified and copy.ending.rule == "checkmate", "imported copy")

    second = new_game(bob, ann_handle)
    join_game.sync(second, client=ann, body=Join())
    answer_draw.sync(second, client=bob, body=Draw(action=DrawAction.OFFER))
    declined = answer_draw.sync(second, client=ann, body=Draw(action=DrawAction.DECLINE))
    check(not declined.ending, "a declined draw ends nothing")
    resigned = resign.sync(second, client=ann)
    check([r.value for r in resigned.ending.results] == ["win", "loss"], "resignation")
    print("the generated client played both games")


if __name__ == "__main__":
    main()
