"""Seeded random chess games played by python-chess, printed as JSON lines for the
differential test (shared/rules/tests/chess_peers.rs).

Usage: chess_games.py SEED GAMES

Each game starts with {"start": FEN}; then one line per position reached:
{"fen", "moves": [[uci, san], ...] sorted, "flags": {...}, "played": uci or null}.
Playouts are biased toward captures, checks and promotions; every fourth game turns
into a shuffle of quiet piece moves after a while (to reach the 75-move rule), and
every fourth game, shifted by two, into moves back and forth (to reach repetitions).
"""

import json
import random
import sys

try:
    import chess
except ImportError:
    sys.exit("python-chess is missing: pip install chess")


def flags(board):
    return {
        "check": board.is_check(),
        "checkmate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
        "insufficient_material": board.is_insufficient_material(),
        "white_insufficient": board.has_insufficient_material(chess.WHITE),
        "black_insufficient": board.has_insufficient_material(chess.BLACK),
        "seventyfive_moves": board.is_seventyfive_moves(),
        "fivefold_repetition": board.is_fivefold_repetition(),
    }


def weight(board, move):
    w = 1.0
    if board.is_capture(move):
        w += 4
    if move.promotion:
        w += 5
    if board.gives_check(move):
        w += 3
    return w


def quiet(board, move):
    return not board.is_capture(move) and board.piece_type_at(move.from_square) != chess.PAWN


def reverse_of_own_last_move(board):
    if len(board.move_stack) < 2:
        return None
    last = board.move_stack[-2]
    back = chess.Move(last.to_square, last.from_square)
    return back if board.is_legal(back) and quiet(board, back) else None


def choose(rng, board, mode):
    moves = list(board.legal_moves)
    if mode == "repeat":
        back = reverse_of_own_last_move(board)
        if back and rng.random() < 0.85:
            return back
    if mode in ("repeat", "shuffle"):
        calm = [m for m in moves if quiet(board, m)]
        if calm and rng.random() < 0.97:
            return rng.choice(calm)
    return rng.choices(moves, weights=[weight(board, m) for m in moves])[0]


def game(rng, index, out):
    board = chess.Board()
    out.write(json.dumps({"start": board.fen()}) + "\n")
    mode = {0: "shuffle", 2: "repeat"}.get(index % 4, "random")
    limit = 400 if mode == "shuffle" else 250
    for ply in range(limit + 1):
        over = board.outcome() is not None
        moves = sorted([m.uci(), board.san(m)] for m in board.legal_moves)
        played = None if over or ply == limit else choose(rng, board, mode if ply >= 16 else "random")
        out.write(json.dumps({
            "fen": board.fen(),
            "moves": moves,
            "flags": flags(board),
            "played": played and played.uci(),
        }) + "\n")
        if played is None:
            break
        board.push(played)


def main():
    seed, games = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for index in range(games):
        game(rng, index, sys.stdout)


if __name__ == "__main__":
    main()
