#!/usr/bin/env python3
"""Reference positions for the xiangqi differential test, from Fairy-Stockfish (pyffish).

Usage: xiangqi.py SEED COUNT

Plays seeded random games from the start position, biased toward captures and checks
(a rough guess of its own picks them; the record's `check` is Fairy-Stockfish's), and
prints one JSON object per line and position:

  fen     the position, as Fairy-Stockfish writes it
  moves   its legal moves in Fairy-Stockfish coordinates (`a10a9`), sorted
  played  the move played from it, or null when the game stops there
  after   the FEN after `played` (null with it)
  wxf     `played` in Fairy-Stockfish's WXF (`=` for a move along the rank)
  check   whether `played` gives check

Games stop when the side to move has no legal move or after MAX_PLIES plies. Exits with
status 3 and a message naming `pip install pyffish` when the module is missing.
"""

import json
import random
import sys

try:
    import pyffish
except ImportError:
    sys.stderr.write("the Python module pyffish is missing: pip install pyffish\n")
    sys.exit(3)

VARIANT = "xiangqi"
MAX_PLIES = 200
HORSE_JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def board_of(fen):
    """The placement as a dict from (file, rank), both 0-based, to the FEN letter."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, file = 9 - i, 0
        for c in row:
            if c.isdigit():
                file += int(c)
            else:
                board[(file, rank)] = c
                file += 1
    return board


def point(name):
    return (ord(name[0]) - ord("a"), int(name[1:]) - 1)


def split_move(move):
    second = next(i for i in range(1, len(move)) if move[i].isalpha())
    return point(move[:second]), point(move[second:])


def attacks_general(board, red):
    """Whether a chariot, cannon, horse or soldier of the side (`red` or not) attacks the
    other side's general on `board`: a rough guess used only to pick moves."""
    general = next((p for p, c in board.items() if c == ("k" if red else "K")), None)
    if general is None:
        return False
    mine = str.isupper if red else str.islower
    gx, gy = general
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        seen = 0
        x, y = gx + dx, gy + dy
        while 0 <= x < 9 and 0 <= y < 10 and seen < 2:
            c = board.get((x, y))
            if c:
                if mine(c) and c.lower() == ("r" if seen == 0 else "c"):
                    return True
                seen += 1
            x, y = x + dx, y + dy
    for dx, dy in HORSE_JUMPS:
        c = board.get((gx + dx, gy + dy))
        # The leg is the horse's neighbour on the long side of its jump toward the general.
        leg = (gx + dx // 2, gy + dy) if abs(dx) == 2 else (gx + dx, gy + dy // 2)
        if c and mine(c) and c.lower() == "n" and leg not in board:
            return True
    behind = -1 if red else 1
    for dx, dy in ((0, behind), (1, 0), (-1, 0)):
        c = board.get((gx + dx, gy + dy))
        if c and mine(c) and c.lower() == "p":
            return True
    return False


def gives_check_guess(board, move, red):
    source, target = split_move(move)
    after = dict(board)
    after[target] = after.pop(source)
    return attacks_general(after, red)


def choose(rng, fen, moves):
    """A move, more often a capture or a check."""
    board = board_of(fen)
    red = fen.split()[1] == "w"
    captures = [m for m in moves if split_move(m)[1] in board]
    checks = [m for m in moves if gives_check_guess(board, m, red)]
    roll = rng.random()
    if checks and roll < 0.3:
        return rng.choice(checks)
    if captures and roll < 0.6:
        return rng.choice(captures)
    return rng.choice(moves)


def play_game(rng, start, budget):
    """The records of one game, at most `budget` of them."""
    records, played = [], []
    fen = start
    while len(records) < budget:
        moves = sorted(pyffish.legal_moves(VARIANT, start, played))
        record = {"fen": fen, "moves": moves, "played": None, "after": None}
        records.append(record)
        if not moves or len(played) >= MAX_PLIES:
            break
        move = choose(rng, fen, moves)
        played.append(move)
        fen = pyffish.get_fen(VARIANT, start, played)
        record["played"], record["after"] = move, fen
    moves = [r["played"] for r in records if r["played"]]
    wxf = pyffish.get_san_moves(VARIANT, start, moves, False, pyffish.NOTATION_XIANGQI_WXF)
    san = pyffish.get_san_moves(VARIANT, start, moves, False, pyffish.NOTATION_SAN)
    for record, w, s in zip(records, wxf, san):
        record["wxf"], record["check"] = w, s.endswith(("+", "#"))
    return records


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(2)
    rng = random.Random(int(sys.argv[1]))
    count = int(sys.argv[2])
    start = pyffish.start_fen(VARIANT)
    emitted = 0
    while emitted < count:
        for record in play_game(rng, start, count - emitted):
            record.setdefault("wxf", None)
            record.setdefault("check", None)
            print(json.dumps(record))
            emitted += 1


if __name__ == "__main__":
    main()
