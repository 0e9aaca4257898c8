"""python-chess's verdict on every game of PGN files, as the archive's import would need it.

verdicts FILE...
    Prints one JSON object per game, in file order:
    {"file": FILE, "game": N, "verdict": V, "detail": TEXT, "result": R, "moves": [UCI...]}
    where V is
      "variant"     python-chess reads the game as another variant than standard chess;
      "failed"      python-chess's reader raised an exception on the game;
      "illegal"     python-chess met an error in the main line (errors in side variations do
                    not count: import drops variations), the start position is not valid, or
                    a main-line move is not a legal move (a null move, `Z0` or `--`, is not);
      "finished"    a legal standard game whose Result is 1-0, 0-1 or 1/2-1/2;
      "ended"       a legal standard game whose Result is `*` (or missing) but whose final
                    position ends it (python-chess's `Board.outcome()`);
      "unfinished"  a legal standard game with no result.
    "result" is the score of a finished or ended game, "moves" the main line in UCI.

Each file is read as UTF-8 and, when it is not UTF-8, as Windows-1252: the archive's rule,
so that both readers see the same text. Games are found with python-chess's own splitter
(`skip_game`) and each is read on its own, so an exception inside python-chess's reader
costs that game only.
"""

import io
import json
import logging
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is not installed: pip install chess")

FINISHED = {"1-0", "0-1", "1/2-1/2"}


def text_of(path):
    data = open(path, "rb").read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def offsets(handle):
    found = []
    while True:
        offset = handle.tell()
        if not chess.pgn.skip_game(handle):
            return found
        found.append(offset)


class MainLineErrors(chess.pgn.GameBuilder):
    """python-chess's game builder, noting which errors it met in the main line."""

    def begin_game(self):
        super().begin_game()
        self.main_line_errors = []

    def handle_error(self, error):
        if len(self.variation_stack) == 1:
            self.main_line_errors.append(str(error))
        super().handle_error(error)

    def result(self):
        game = super().result()
        game.main_line_errors = self.main_line_errors
        return game


def variant_of(game):
    headers = game.headers
    try:
        board_class = headers.variant()
    except ValueError as error:
        return str(error)
    if headers.is_chess960():
        return "chess960"
    if board_class is not chess.Board:
        return board_class.uci_variant
    return None


def judge(game):
    variant = variant_of(game)
    if variant is not None:
        return "variant", variant, None, []
    if game.main_line_errors:
        return "illegal", "; ".join(game.main_line_errors), None, []
    board = game.board()
    if board.chess960:
        return "variant", "chess960 (read from the FEN's castling rights)", None, []
    if not board.is_valid():
        return "illegal", f"invalid start position: {board.status()!r}", None, []
    moves = []
    for move in game.mainline_moves():
        if not board.is_legal(move):
            return "illegal", f"move {len(moves) + 1} `{move.uci()}` is not legal", None, []
        moves.append(move.uci())
        board.push(move)
    result = game.headers.get("Result", "*")
    if result in FINISHED:
        return "finished", result, result, moves
    outcome = board.outcome()
    if outcome is not None:
        return "ended", outcome.termination.name.lower(), outcome.result(), moves
    return "unfinished", result, None, moves


def verdicts(path):
    handle = io.StringIO(text_of(path))
    for number, offset in enumerate(offsets(handle), start=1):
        handle.seek(offset)
        try:
            verdict, detail, result, moves = judge(
                chess.pgn.read_game(handle, Visitor=MainLineErrors)
            )
        except Exception as error:  # python-chess's reader itself failed on this game
            verdict, detail, result, moves = "failed", repr(error), None, []
        print(json.dumps({
            "file": path,
            "game": number,
            "verdict": verdict,
            "detail": detail,
            "result": result,
            "moves": moves,
        }))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    logging.disable(logging.CRITICAL)
    for path in sys.argv[1:]:
        verdicts(path)
