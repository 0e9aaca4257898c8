"""python-chess as the archive's peer.

read FILE
    Reads every game of FILE with python-chess and prints one JSON object per game:
    its headers in order, its main-line moves in UCI, and the errors python-chess met.
write COUNT SEED FILE
    Writes COUNT random games to FILE as python-chess exports them (comments with %clk and
    %emt, NAGs, nested variations, every kind of result) and prints, per game, the JSON
    object a faithful reader must find (same form as `read`).
"""

import json
import random
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is not installed: pip install chess")


def describe(game):
    return {
        "headers": [[name, value] for name, value in game.headers.items()],
        "moves": [move.uci() for move in game.mainline_moves()],
        "errors": [str(error) for error in game.errors],
    }


def read(path):
    with open(path, encoding="utf-8-sig") as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            print(json.dumps(describe(game)))


def clock(rng):
    return f"[%clk {rng.randrange(3)}:{rng.randrange(60):02}:{rng.randrange(60):02}]"


def annotate(node, rng):
    roll = rng.random()
    if roll < 0.2:
        node.comment = clock(rng)
    elif roll < 0.3:
        node.comment = f"a thought {clock(rng)} [%emt 0:00:{rng.randrange(60):02}]"
    elif roll < 0.35:
        node.comment = "only words, with (parentheses) and a semicolon;"
    if rng.random() < 0.1:
        node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 10, 14, 18]))


def add_variation(node, board, rng, depth):
    """Adds a short side line of random moves at `node` (whose position is `board`)."""
    moves = list(board.legal_moves)
    if len(moves) < 2:
        return
    side = node.add_variation(rng.choice(moves))
    annotate(side, rng)
    line_board = side.board()
    for _ in range(rng.randrange(4)):
        options = list(line_board.legal_moves)
        if not options:
            break
        if depth < 2 and rng.random() < 0.3:
            add_variation(side, line_board, rng, depth + 1)
        side = side.add_main_variation(rng.choice(options))
        line_board.push(side.move)


def random_game(rng, number):
    game = chess.pgn.Game()
    game.headers["Event"] = f"Random {number}"
    game.headers["Site"] = "python-chess"
    game.headers["Date"] = "2026.11.29"
    game.headers["Round"] = str(number)
    game.headers["White"] = rng.choice(["Ann", "Bo \"B\" Lee", "Čapek"])
    game.headers["Black"] = rng.choice(["Cy", "Di\\Do", "Émile"])
    board = chess.Board()
    node = game
    for _ in range(rng.randrange(120)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over(claim_draw=False):
            break
        mainline_move = rng.choice(moves)
        if rng.random() < 0.08:
            add_variation(node, board, rng, 0)
        node = node.add_main_variation(mainline_move)
        board.push(mainline_move)
        annotate(node, rng)
    outcome = board.outcome(claim_draw=False)
    if outcome is not None:
        game.headers["Result"] = outcome.result()
    else:
        game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return game


def write(count, seed, path):
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as handle:
        for number in range(1, count + 1):
            game = random_game(rng, number)
            print(game, file=handle, end="\n\n")
            print(json.dumps(describe(game)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["read"] and len(sys.argv) == 3:
        read(sys.argv[2])
    elif sys.argv[1:2] == ["write"] and len(sys.argv) == 5:
        write(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)
